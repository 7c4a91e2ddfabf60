import { INestApplication, SetMetadata } from '@nestjs/common';
import {
  DECORATORS,
  ApiParam,
  DocumentBuilder,
  MediaTypeObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SecurityRequirementObject,
  SwaggerModule,
} from '@nestjs/swagger';
import {
  PROBLEM_CONTENT_TYPE,
  problemResponse,
  ProblemView,
  STANDARD_PROBLEMS,
} from '@/http/errors/api-problems';
import {
  CONSISTENCY_TOKEN_EXAMPLE,
  CONSISTENCY_TOKEN_HEADER,
  CONSISTENCY_TOKEN_PARAMETER_DESCRIPTION,
  CONSISTENCY_TOKEN_PARAMETER_SCHEMA,
  CONSISTENCY_TOKEN_RESPONSE_DESCRIPTION,
} from '@/platform/replicas/consistency-token';
import { TENANT_HEADER } from '@/http/tenancy/tenant.guard';
import type { Request } from 'express';

export const BEARER_SCHEME = 'bearer';
export const TENANT_SCHEME = 'tenant';

/** The documented server: fixed, so the document is the same whatever PORT/HOST/NODE_ENV are. */
export const DOCUMENTED_SERVER = 'http://localhost:3000';

const DESCRIPTION = `
Multi-tenant finance service for property developers: bookings, demands, demand splits,
receipts, receipt search and per-tenant document numbering.

**Authorize** with both schemes: a bearer JWT (locally: \`npm run -s token -- --tenant demo\`)
and the tenant key in \`x-tenant-id\` (\`demo\` or \`demo-b\` with the demo data). Every
operation except the health checks needs both.

**Postman** (Import this document, or Portman from \`/docs-json\`): set the variables
\`baseUrl\`, \`bearerToken\` and \`tenantId\`. Every operation that needs a tenant also declares
\`x-tenant-id\` as a required header parameter whose example is \`{{tenantId}}\`, because
Postman turns only one security scheme (the bearer token) into auth. In Swagger UI, Authorize's
tenant replaces that field's value on the request.

Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\` and a \`traceId\`.
Every operation can answer 400 (for example an unknown query parameter); every authenticated
one also 401, 403, 429 (see \`Retry-After\`) and 503 (database unavailable: nothing was saved,
retry after \`Retry-After\`); every operation with a body also 413 and 415.
Money amounts are exact to two decimals; \`formatted\` uses the tenant's locale.
See docs/api.md in the repository for the search filter language and the number pattern language.
`;

const TAGS: [name: string, description: string][] = [
  ['health', 'Liveness and readiness probes; public, no token.'],
  ['bookings', 'Bookings of units by buyers; numbered on creation.'],
  ['demands', 'Payment requests on a booking, split between payers.'],
  [
    'receipts',
    'Payments received against demand splits: record, read, cancel, bounce, search and total.',
  ],
  [
    'receivables',
    'What buyers owe: outstanding by days past the due date (ageing), at any business date.',
  ],
  [
    'interest',
    "Interest on late payment: the tenant's policy (rates over time), interest per booking at any business date, interest demands and waivers.",
  ],
  [
    'statements',
    'The statement of account of a booking: every demand, receipt, reversal and cancellation as it happened, at any business date, as JSON, PDF or XLSX.',
  ],
  [
    'letters',
    'What the buyer receives: the demand letter (JSON or PDF; a request for disbursement for a lending bank), reminders by days from the due date that never go out twice, and collection holds that pause them.',
  ],
  [
    'events',
    'The outbox as a pull feed: every change, in commit order, without gaps (scope events:read).',
  ],
  [
    'webhooks',
    'Signed HTTP callbacks of the events, in sequence order per subscription, with retries (scope webhooks:write).',
  ],
  [
    'cancellations',
    'Cancelling demands (with their splits) and bookings (with their demands) with nothing paid; a booking that has been paid for, with the forfeiture its policy caps, credit notes and the refund (its interest, the refunds queue, the letter).',
  ],
  [
    'bank',
    "Bank accounts and their statements: import the bank's own file (CSV, camt.053, MT940) safely, read its lines (scopes bank:read, bank:write).",
  ],
  ['numbers', 'Numbers for documents kept outside this service (snags).'],
  ['tenant configuration', "The tenant's document numbering configuration and its history."],
  [
    'gst',
    "The tenant's GST settings (registration, what is filed) and their history; bookings carry the GST class they are derived from; tax invoices, credit notes and the month's GSTR-1.",
  ],
  [
    'books',
    "Vouchers for the developer's books (TallyPrime XML or CSV), one per business event, and the ledgers they post to.",
  ],
];

const RETRY_AFTER = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 0, example: 1 },
};

/** Marks a controller or route as public in the document (no security requirement). */
export const ApiPublic = () => SetMetadata(DECORATORS.API_SECURITY, []);

/** The `{id}` path parameter of a resource: a UUID (anything else is 400 before any lookup). */
export const ApiIdParam = (description: string) =>
  ApiParam({
    name: 'id',
    description,
    schema: { type: 'string', format: 'uuid' },
    example: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b',
  });

/** The OpenAPI document of the routes `app` serves (also committed as openapi.json). */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Finance service for property developers')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .setLicense('Proprietary', 'https://finance-service.dev/license')
    .addServer(
      DOCUMENTED_SERVER,
      'Local development (`npm start`). Postman and other clients set their own base URL.',
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .addApiKey(
      { type: 'apiKey', in: 'header', name: TENANT_HEADER, description: 'Tenant key, e.g. demo' },
      TENANT_SCHEME,
    )
    // One requirement object with both schemes: the token AND the tenant header.
    .addSecurityRequirements({ [BEARER_SCHEME]: [], [TENANT_SCHEME]: [] });
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    extraModels: [ProblemView],
  });
  document.components = {
    ...document.components,
    parameters: { ...document.components?.parameters, [TENANT_PARAMETER_NAME]: TENANT_PARAMETER },
  };
  return addStandardProblems(document);
}

/** The key of {@link TENANT_PARAMETER} in `components.parameters`. */
export const TENANT_PARAMETER_NAME = 'TenantHeader';

/**
 * `x-tenant-id` again, as a required header parameter of every operation that needs a tenant
 * (added in `finishOperation`, referenced from `components.parameters`). The `tenant` security
 * scheme stays the requirement; this parameter is for tools that turn one security scheme into
 * auth and drop the other: openapi-to-postmanv2 (Postman's import, Portman) makes the bearer
 * scheme the collection's auth. Required, because Portman (and the converter with
 * `enableOptionalParameters: false`) leaves optional headers out: a collection generated with
 * Portman's defaults sent no `x-tenant-id` at all. The converter fills a header from its schema's
 * `default` under every `parametersResolution` (from `example` only under "Example"), so both are
 * the Postman variable `{{tenantId}}`. Swagger UI pre-fills the field from `example` (so its
 * required-field check passes with nobody typing) and swagger-client applies the Authorized
 * apiKey after the parameters (`headers[name] = value`, same header name), so Authorize's tenant
 * is what is sent (test/swagger-ui.browser-spec.ts). No `pattern`: the variable is not a tenant
 * key; the server checks the header and never assumes one (missing or unresolved: 400).
 */
export const TENANT_PARAMETER: ParameterObject = {
  name: TENANT_HEADER,
  in: 'header',
  required: true,
  description:
    'The tenant key, e.g. `demo`. The same header as the `tenant` security scheme: in Swagger ' +
    "UI, Authorize's value replaces this field. Declared as a parameter too for tools that turn " +
    "only one security scheme into auth (Postman's import, Portman): its example `{{tenantId}}` " +
    'is a Postman variable, not a value the server assumes. Missing, or not a tenant key (an ' +
    'unresolved `{{tenantId}}` too): 400 `TENANT_HEADER_INVALID`; the tenant is never taken ' +
    'from the token.',
  schema: { type: 'string', default: '{{tenantId}}', example: '{{tenantId}}' },
};

const TENANT_PARAMETER_REF: ReferenceObject = {
  $ref: `#/components/parameters/${TENANT_PARAMETER_NAME}`,
};

/**
 * Error responses the global guards, pipes and middleware produce for every operation of a kind
 * are added here, in one place, rather than repeated on each route; every error response is
 * problem+json with an example of its own status.
 */
export function addStandardProblems(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation) finishOperation(path, method, operation, document.security ?? []);
    }
  }
  return document;
}

function finishOperation(
  path: string,
  method: string,
  operation: OperationObject,
  globalSecurity: SecurityRequirementObject[],
): void {
  const security = operation.security ?? globalSecurity;
  const authenticated = security.length > 0;
  if (authenticated) documentConsistencyToken(method, operation);
  if (security.some((requirement) => TENANT_SCHEME in requirement)) {
    operation.parameters = [...(operation.parameters ?? []), TENANT_PARAMETER_REF];
  }
  const statuses: number[] = [
    ...STANDARD_PROBLEMS.all,
    ...(authenticated ? STANDARD_PROBLEMS.authenticated : []),
    ...(operation.requestBody ? STANDARD_PROBLEMS.withBody : []),
  ];
  const responses = operation.responses;
  for (const status of statuses) {
    responses[status] ??= problemResponse(status);
  }
  for (const status of ['429', '503']) {
    const response = responses[status] as ResponseObject | undefined;
    if (response) response.headers = { 'Retry-After': RETRY_AFTER };
  }
  for (const [status, response] of Object.entries(responses) as [string, ResponseObject][]) {
    if (Number(status) < 400) continue;
    const declared = (response.content?.[PROBLEM_CONTENT_TYPE] ??
      problemResponse(Number(status)).content[PROBLEM_CONTENT_TYPE]) as MediaTypeObject;
    // The examples' instance is this operation's path.
    const at = (example: unknown) => ({ ...(example as Record<string, unknown>), instance: path });
    response.content = {
      [PROBLEM_CONTENT_TYPE]: declared.examples
        ? {
            ...declared,
            examples: Object.fromEntries(
              Object.entries(declared.examples).map(([code, example]) => [
                code,
                { ...example, value: at((example as { value: unknown }).value) },
              ]),
            ),
          }
        : { ...declared, example: at(declared.example) },
    };
  }
  // Keys in status order: a stable, readable document.
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * Reads (GETs, and the POSTs marked @ReplicaRead, which declare the header) accept
 * X-Consistency-Token; every other operation is a write whose success carries one.
 */
function documentConsistencyToken(method: string, operation: OperationObject): void {
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  const declared = parameters.some((p) => p.in === 'header' && p.name === CONSISTENCY_TOKEN_HEADER);
  if (method === 'get' && !declared) {
    operation.parameters = [...parameters, CONSISTENCY_TOKEN_PARAMETER];
  }
  if (method === 'get' || declared) return;
  for (const [status, response] of Object.entries(operation.responses) as [
    string,
    ResponseObject,
  ][]) {
    if (Number(status) >= 300) continue;
    response.headers = {
      ...response.headers,
      [CONSISTENCY_TOKEN_HEADER]: {
        description: CONSISTENCY_TOKEN_RESPONSE_DESCRIPTION,
        schema: { type: 'string', example: CONSISTENCY_TOKEN_EXAMPLE },
      },
    };
  }
}

export const CONSISTENCY_TOKEN_PARAMETER: ParameterObject = {
  name: CONSISTENCY_TOKEN_HEADER,
  in: 'header',
  required: false,
  description: CONSISTENCY_TOKEN_PARAMETER_DESCRIPTION,
  schema: { ...CONSISTENCY_TOKEN_PARAMETER_SCHEMA },
};

/**
 * Swagger UI and /docs-json serve the committed document; when the service is reached at another
 * origin than the documented one, that origin is listed first so "Try it out" calls this server.
 */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, createOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
    patchDocumentOnRequest: <TRequest>(
      request: TRequest,
      _res: unknown,
      document: OpenAPIObject,
    ) => {
      const req = request as unknown as Request; // Express: the platform this app runs on
      const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      if (origin === DOCUMENTED_SERVER) return document;
      return {
        ...document,
        servers: [
          { url: origin, description: 'The server that served this document.' },
          ...(document.servers ?? []),
        ],
      };
    },
  });
}
