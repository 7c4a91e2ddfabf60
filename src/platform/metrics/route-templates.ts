/** A route as Express registered it: `POST /receipts/:id/cancel`. */
export interface RouteTemplate {
  method: string;
  path: string;
}

/** The parts of an Express 5 application this reads: its router's route layers. */
export interface ExpressRoutes {
  router?: { stack?: { route?: { path?: unknown; methods?: Record<string, boolean> } }[] };
}

/** Every route of `app` with a plain template (`/a/:id/b`), in the order Express tries them. */
export function expressRouteTemplates(app: ExpressRoutes): RouteTemplate[] {
  const templates: RouteTemplate[] = [];
  for (const layer of app.router?.stack ?? []) {
    const path = layer.route?.path;
    if (typeof path !== 'string' || /[*?(){}]/.test(path)) continue;
    for (const [method, on] of Object.entries(layer.route?.methods ?? {})) {
      if (on && method !== '_all') templates.push({ method: method.toUpperCase(), path });
    }
  }
  return templates;
}

const segments = (path: string) => path.replace(/\/+$/, '').split('/');

/**
 * The template of the first route that would serve `method path`, as Express matches (letter
 * case ignored, a trailing slash allowed, `:name` one non-empty segment); undefined when none.
 * For responses given before routing (a body refused as too large or wrongly encoded), which
 * Express never tied to their route.
 */
export function matchRouteTemplate(
  templates: readonly RouteTemplate[],
  method: string,
  path: string,
): string | undefined {
  const actual = segments(path);
  const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
  for (const template of templates) {
    if (!wanted.includes(template.method)) continue;
    const expected = segments(template.path);
    if (expected.length !== actual.length) continue;
    const matches = expected.every((part, i) =>
      part.startsWith(':') ? actual[i] !== '' : part.toLowerCase() === actual[i].toLowerCase(),
    );
    if (matches) return template.path;
  }
  return undefined;
}
