// The dashboard's entry point: learns what the node serves (/api/routes, /info), connects
// to the event API when it is on, and switches between the overview and the explorer by
// the location hash (#/, #/block/0x…, #/search/…).

import { getJson } from './lib/api.js';
import { LiveFeed } from './lib/live.js';
import { MqttClient } from './lib/mqtt.js';
import { fill, h } from './lib/dom.js';
import { Explorer, splitRoute } from './views/explorer.js';
import { Overview } from './views/overview.js';

const $ = (id) => document.getElementById(id);

async function start() {
  const [routes, info] = await Promise.all([getJson('/api/routes'), getJson('/api/core/v2/info')]);
  const node = { routes: new Set(routes.routes), info, hrp: info.protocol.bech32Hrp, mqtt: null, feed: null };

  const badge = $('connection');
  if (node.routes.has('mqtt/v1')) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/mqtt/v1`;
    node.mqtt = new MqttClient(url, {
      onState: (state) => {
        badge.className = `badge ${state}`;
        badge.textContent = { connecting: 'connecting…', connected: 'live', disconnected: 'reconnecting…' }[state];
      },
    });
    node.feed = new LiveFeed(node.mqtt, () => overview.visible && overview.render());
  } else {
    badge.textContent = 'events off';
    badge.title = 'The event API is off on this node';
  }

  const overview = new Overview(node);
  const explorer = new Explorer(node, $('explorer'));

  const route = () => {
    const [kind, arg] = splitRoute(location.hash.replace(/^#\/?/, ''));
    const inExplorer = kind !== '';
    $('overview-view').hidden = inExplorer;
    $('explorer-view').hidden = !inExplorer;
    $('nav-overview').classList.toggle('active', !inExplorer);
    $('nav-explorer').classList.toggle('active', inExplorer);
    if (inExplorer) {
      overview.hide();
      explorer.show(kind === 'explorer' ? '' : kind, arg);
    } else {
      explorer.dispose();
      overview.show();
    }
  };
  window.addEventListener('hashchange', route);
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const q = $('search').value.trim();
    if (q !== '') location.hash = `#/search/${encodeURIComponent(q)}`;
  });
  route();
}

start().catch((err) => {
  fill(
    $('overview-view'),
    h('section', { class: 'detail' }, h('h1', {}, 'The node did not answer'), h('p', { class: 'error' }, err.message)),
  );
});
