import { etagOf, ifMatchAllows, ifNoneMatchHits } from './etag';

describe('etag', () => {
  const tag = etagOf({ a: 1 });

  it('is a quoted hash of the representation', () => {
    expect(tag).toMatch(/^"[\w-]{27}"$/);
    expect(etagOf({ a: 1 })).toBe(tag);
    expect(etagOf({ a: 2 })).not.toBe(tag);
  });

  it('If-Match: absent, *, or the tag in a list (strong comparison)', () => {
    expect(ifMatchAllows(undefined, tag)).toBe(true);
    expect(ifMatchAllows('*', tag)).toBe(true);
    expect(ifMatchAllows(`"x", ${tag}`, tag)).toBe(true);
    expect(ifMatchAllows(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchAllows('"x"', tag)).toBe(false);
  });

  it('If-None-Match: *, or the tag weak or strong', () => {
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
    expect(ifNoneMatchHits('*', tag)).toBe(true);
    expect(ifNoneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits('"x"', tag)).toBe(false);
  });
});
