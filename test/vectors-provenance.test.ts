// The vendored conformance vectors are exactly the files vectors/README.md describes: same
// record count, size and SHA-256, and no file there that the table does not list.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VECTORS } from './vectors';

interface Row {
  file: string;
  records: number;
  bytes: number;
  sha256: string;
}

function table(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(join(VECTORS, 'README.md'), 'utf8').split('\n')) {
    const m = /^\| (\S+\.jsonl?) \| (\d+) \| (\d+) \| `([0-9a-f]{64})` \|$/.exec(line);
    if (m) rows.push({ file: m[1], records: Number(m[2]), bytes: Number(m[3]), sha256: m[4] });
  }
  return rows;
}

function recordCount(file: string, text: string): number {
  if (file.endsWith('.jsonl')) return text.split('\n').filter((l) => l.trim()).length;
  return Object.keys(JSON.parse(text)).length;
}

describe('vectors/README.md provenance table', () => {
  const rows = table();

  it('lists every data file of the folder', () => {
    const data = readdirSync(VECTORS)
      .filter((f) => f !== 'README.md')
      .sort();
    expect(rows.map((r) => r.file).sort()).toEqual(data);
  });

  it.each(rows.map((r) => [r.file, r]))('%s has its recorded records, size and sha256', (_file, row) => {
    const bytes = readFileSync(join(VECTORS, row.file));
    expect(bytes.length).toBe(row.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
    expect(recordCount(row.file, bytes.toString('utf8'))).toBe(row.records);
  });
});
