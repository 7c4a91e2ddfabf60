import { expressRouteTemplates, matchRouteTemplate } from './route-templates';

describe(matchRouteTemplate.name, () => {
  const templates = expressRouteTemplates({
    router: {
      stack: [
        { route: { path: '/receipts/search', methods: { post: true } } },
        { route: { path: '/receipts/:id', methods: { get: true } } },
        { route: { path: '/receipts/:id/cancel', methods: { post: true } } },
        { route: { path: '/docs/*splat', methods: { get: true } } },
        {},
      ],
    },
  });

  it('lists plain templates only, with their methods', () => {
    expect(templates).toEqual([
      { method: 'POST', path: '/receipts/search' },
      { method: 'GET', path: '/receipts/:id' },
      { method: 'POST', path: '/receipts/:id/cancel' },
    ]);
  });

  it.each([
    ['POST', '/receipts/search', '/receipts/search'],
    ['GET', '/receipts/search', '/receipts/:id'],
    ['POST', '/Receipts/abc/cancel/', '/receipts/:id/cancel'],
    ['HEAD', '/receipts/abc', '/receipts/:id'],
    ['POST', '/receipts/abc', undefined],
    ['POST', '/receipts//cancel', undefined],
    ['GET', '/elsewhere', undefined],
  ])('%s %s is %s', (method, path, template) => {
    expect(matchRouteTemplate(templates, method, path)).toBe(template);
  });
});
