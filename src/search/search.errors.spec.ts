import { AppError } from '@/common/app-error';
import { field, SearchCatalogue } from '@/search/search-catalogue';
import { parseSearchRequest } from '@/search/search-request';
import { SEARCH_ERROR_CODES, SEARCH_PROBLEMS } from '@/search/search.errors';

const CATALOGUE = new SearchCatalogue(
  'things',
  [field('id', 'uuid', 'thing', 'id'), field('amount', 'number', 'thing', 'amount')],
  { amount: 'amount', id: 'id' },
  [{ field: 'id', direction: 'desc' }],
);

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError to be thrown');
}

describe('search errors', () => {
  it('declares one 400 for each documented code', () => {
    expect(Object.keys(SEARCH_PROBLEMS).sort()).toEqual(Object.values(SEARCH_ERROR_CODES).sort());
    for (const [code, problem] of Object.entries(SEARCH_PROBLEMS)) {
      expect(problem).toMatchObject({ status: 400, code });
      expect(problem.detail(...problem.example)).toMatch(/^(filters|sort|page|size)\S*: /);
    }
  });

  it('throws the definition of the first problem with every problem listed', () => {
    const err = thrown(() =>
      parseSearchRequest(CATALOGUE, { size: '0' }, [{ field: 'amount', type: 'eq', query: 'x' }]),
    );
    expect(err).toMatchObject({ status: 400, title: 'Bad Request', code: 'SEARCH_INVALID_PAGING' });
    expect(err.errors?.map((e) => e.field)).toEqual(['size', 'filters[0].query']);
    expect(err.detail).toBe(SEARCH_PROBLEMS[SEARCH_ERROR_CODES.invalidPaging].detail(err.errors!));
  });
});
