// Application script, loaded (deferred) by the layouts on every page.
// Put shared behaviour here; keep scripts out of the templates so that a strict CSP stays possible.
// htmx and Alpine are opt-in: `fw js:init htmx|alpine|htmx-alpine`, then load them in a page's `scripts` block.
