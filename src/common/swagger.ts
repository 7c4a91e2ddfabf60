import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { TENANT_HEADER } from '@/common/tenancy/tenant.guard';

export const BEARER_SCHEME = 'bearer';
export const TENANT_SCHEME = 'tenant';

const DESCRIPTION = `
Multi-tenant finance service for property developers: bookings, demands, demand splits,
receipts, receipt search and per-tenant document numbering.

**Authorize** with both schemes: a bearer JWT (locally: \`npm run -s token -- --tenant demo\`)
and the tenant key in \`x-tenant-id\` (\`demo\` or \`demo-b\` with the demo data).

Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\` and a \`traceId\`.
Money amounts are exact to two decimals; \`formatted\` uses the tenant's locale.
See the README for the search filter language and the number pattern language.
`;

export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Receipts and Tenant Numbering Service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .addApiKey(
      { type: 'apiKey', in: 'header', name: TENANT_HEADER, description: 'Tenant key, e.g. demo' },
      TENANT_SCHEME,
    )
    .addSecurityRequirements(BEARER_SCHEME)
    .addSecurityRequirements(TENANT_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { persistAuthorization: true },
  });
}
