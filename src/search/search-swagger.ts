import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { SearchCatalogue } from '@/search/search-catalogue';
import { SEARCH_LIMITS } from '@/search/search-request';

/** The page, size and sort query parameters of a search route over `catalogue`. */
export function ApiSearchQuery(catalogue: SearchCatalogue) {
  return applyDecorators(ApiPagingQuery(), ApiSortQuery(catalogue));
}

/** `page` and `size`, as every search takes them. */
export function ApiPagingQuery() {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      description: '0-based page number.',
      schema: {
        type: 'integer',
        minimum: 0,
        maximum: SEARCH_LIMITS.maxPage,
        default: 0,
        example: 0,
      },
    }),
    ApiQuery({
      name: 'size',
      required: false,
      description: 'Page size.',
      schema: {
        type: 'integer',
        minimum: SEARCH_LIMITS.minSize,
        maximum: SEARCH_LIMITS.maxSize,
        default: SEARCH_LIMITS.defaultSize,
        example: 20,
      },
    }),
  );
}

/** `sort` over the catalogue's sortable fields (repeatable `field,asc|desc`). */
export function ApiSortQuery(catalogue: SearchCatalogue) {
  const example = catalogue.defaultSort[0];
  return applyDecorators(
    ApiQuery({
      name: 'sort',
      required: false,
      description: `Repeatable: \`field,asc\` or \`field,desc\` (direction optional, default asc). Fields: ${catalogue.sortFields.join(', ')}; default ${example.field},${example.direction}, with an id tie-breaker always appended.`,
      schema: {
        type: 'array',
        maxItems: catalogue.sortFields.length,
        items: {
          type: 'string',
          pattern: `^(${catalogue.sortFields.join('|')})(,(asc|desc))?$`,
          example: `${example.field},${example.direction}`,
        },
        example: [`${example.field},${example.direction}`],
      },
      style: 'form',
      explode: true,
    }),
  );
}
