import { Body, Controller, Get, Headers, HttpCode, Post, Put, Res } from '@nestjs/common';
import { ApiIfMatch, etagHeader, sendEtag } from '@/http/etag';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Route } from '@/http/route.decorator';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { TenantConfigurationInput } from './dto/tenant-configuration.request';
import {
  ConfigurationPreview,
  ConfigurationVersion,
  TenantConfigurationView,
} from './dto/tenant-configuration.view';
import { CONFIGURATION_CHANGED, NUMBER_SERIES_IN_USE } from './tenant-config.errors';
import { TenantConfigService } from './tenant-config.service';

const ETAG_HEADER = etagHeader('configuration');

@ApiTags('tenant configuration')
@Controller('tenant/configuration')
export class TenantConfigController {
  constructor(private readonly service: TenantConfigService) {}

  @Get()
  @Route({
    summary: "The tenant's numbering configuration (with an ETag).",
    description:
      'The response carries an ETag header; send it back as If-Match on PUT to avoid overwriting a concurrent change.',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: TenantConfigurationView, headers: ETAG_HEADER })
  get(@Tenant() tenant: TenantContext, @Res({ passthrough: true }) res: Response) {
    return this.service.get(tenant).then(sendEtag(res));
  }

  @Put()
  @Route({
    summary: 'Replace the numbering configuration.',
    description:
      'The seventeen writable fields of the bookings, demands, splits, receipts and snags are required; the nine of the GST documents (taxInvoiceNumber…, creditNoteNumber…, refundNumber…) are optional and keep their current values when left out. id, created, createdBy, modified and lastModifiedBy are read-only and ignored, so a GET response can be sent back. Unknown fields are refused. A GST document pattern must contain {FY} or {FYYYY}, no {PARENT}, and with its counter at its padded width render at most 16 letters, digits, - and / (else 400). Their series are gap-free: raising a Starting above a counter already used is 409 NUMBER_SERIES_IN_USE. Send If-Match with the ETag of a GET to avoid overwriting a concurrent change (412). Every replacement is kept in the history.',
    scopes: ['tenant-config:write'],
    problems: [CONFIGURATION_CHANGED, NUMBER_SERIES_IN_USE],
  })
  @ApiIfMatch()
  @ApiOkResponse({ type: TenantConfigurationView, headers: ETAG_HEADER })
  replace(
    @Tenant() tenant: TenantContext,
    @Body() body: TenantConfigurationInput,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.service.replace(tenant, body, ifMatch).then(sendEtag(res));
  }

  @Get('history')
  @Route({
    summary: 'Every stored version, newest first, with who changed what and when.',
    description:
      'Version 1 is the configuration as created; each later version lists the fields that changed with their previous and new values (text, whole numbers or flags).',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: [ConfigurationVersion] })
  history(@Tenant() tenant: TenantContext): Promise<ConfigurationVersion[]> {
    return this.service.history(tenant);
  }

  @Post('preview')
  @HttpCode(200)
  @Route({
    summary:
      'Preview a candidate configuration: the next number per document type today, and warnings.',
    description:
      'Stores nothing and consumes no number. GST document fields left out take their current values. Warnings cover the 16-character GST limit, characters outside letters, digits, - and /, and leading 0, / or -; for the GST documents (tax-invoice, credit-note, refund) those rules are validated as on PUT (400).',
    scopes: ['tenant-config:read'],
    replicaRead: true,
  })
  @ApiOkResponse({ type: ConfigurationPreview })
  preview(
    @Tenant() tenant: TenantContext,
    @Body() body: TenantConfigurationInput,
  ): Promise<ConfigurationPreview> {
    return this.service.preview(tenant, body);
  }
}
