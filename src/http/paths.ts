// Paths that more than one HTTP door needs to recognise. The event API's (events.md §1,
// D33): the upgrade to it is taken off each HTTP server before Koa (events/handoff.ts), and
// the same path without an upgrade is a plain route (server/routes/mqtt.ts).

export const EVENTS_PATH = '/api/mqtt/v1';
