// A small line chart on a canvas: a few series over a shared x axis, a y axis from zero,
// four grid lines, a legend. Redrawn whole on every update (a few hundred points at most).

const FONT = '11px system-ui, sans-serif';

export class LineChart {
  /**
   * @param canvas a <canvas> element (its CSS size is kept; the bitmap follows the pixel ratio)
   * @param series [{ label, color }]
   * @param options { unit: text after y values, xLabel: (x) => text }
   */
  constructor(canvas, series, options = {}) {
    this.canvas = canvas;
    this.series = series;
    this.unit = options.unit ?? '';
    this.xLabel = options.xLabel ?? ((x) => String(x));
    this.xs = [];
    this.ys = series.map(() => []);
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /**
   * Replace the data: `xs` shared, `ys[i]` the values of series i (null = gap). The canvas's
   * `data-points` says how many x values it holds (for tests and for tools that read the page).
   */
  set(xs, ys) {
    this.xs = xs;
    this.ys = ys;
    this.canvas.dataset.points = String(xs.length);
    this.draw();
  }

  draw() {
    const ratio = window.devicePixelRatio || 1;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    if (width === 0 || height === 0) return;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const style = getComputedStyle(this.canvas);
    const ink = style.getPropertyValue('--chart-ink').trim() || '#667';
    const grid = style.getPropertyValue('--chart-grid').trim() || '#ddd';
    ctx.font = FONT;

    const left = 48;
    const right = width - 8;
    const top = 20;
    const bottom = height - 18;
    let max = 0;
    for (const ys of this.ys) for (const y of ys) if (y !== null && y > max) max = y;
    const ceiling = niceCeiling(max);

    ctx.strokeStyle = grid;
    ctx.fillStyle = ink;
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let i = 0; i <= 4; i++) {
      const y = bottom - ((bottom - top) * i) / 4;
      ctx.beginPath();
      ctx.moveTo(left, Math.round(y) + 0.5);
      ctx.lineTo(right, Math.round(y) + 0.5);
      ctx.stroke();
      ctx.fillText(formatTick((ceiling * i) / 4) + this.unit, left - 6, y);
    }

    const n = this.xs.length;
    const xAt = (i) => (n <= 1 ? right : left + ((right - left) * i) / (n - 1));
    const yAt = (v) => bottom - ((bottom - top) * v) / ceiling;
    if (n > 0) {
      ctx.textAlign = 'left';
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(this.xLabel(this.xs[0]), left, height - 4);
      ctx.textAlign = 'right';
      ctx.fillText(this.xLabel(this.xs[n - 1]), right, height - 4);
    }

    this.series.forEach((s, k) => {
      const ys = this.ys[k] ?? [];
      ctx.strokeStyle = s.color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      let drawing = false;
      ys.forEach((v, i) => {
        if (v === null || v === undefined) {
          drawing = false;
          return;
        }
        if (drawing) ctx.lineTo(xAt(i), yAt(v));
        else ctx.moveTo(xAt(i), yAt(v));
        drawing = true;
      });
      ctx.stroke();
    });

    // Legend, top left.
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    let x = left;
    for (const s of this.series) {
      ctx.fillStyle = s.color;
      ctx.fillRect(x, 6, 10, 4);
      ctx.fillStyle = ink;
      ctx.fillText(s.label, x + 14, 8);
      x += ctx.measureText(s.label).width + 30;
    }
  }
}

/** 1, 2 or 5 times a power of ten, at least `value` (and at least 1). */
function niceCeiling(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function formatTick(v) {
  if (v >= 1000) return `${Math.round(v / 100) / 10}k`;
  return String(Math.round(v * 100) / 100);
}
