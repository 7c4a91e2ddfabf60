import { Body, Controller, Get, Headers, Put, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { GSTIN_INVALID } from '@/gst/gst.errors';
import { ApiIfMatch, etagHeader, sendEtag } from '@/http/etag';
import { Route } from '@/http/route.decorator';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { GST_SETTINGS_EXAMPLES, GstSettingsRequest } from './dto/gst-settings.request';
import { GstSettingsVersion, GstSettingsView } from './dto/gst-settings.view';
import { GST_SETTINGS_CHANGED, GST_SETTINGS_INCOMPLETE } from './gst-settings.errors';
import { GstSettingsService } from './gst-settings.service';

const ETAG_HEADER = etagHeader('GST settings');

@ApiTags('gst')
@Controller('tenant/gst')
export class GstSettingsController {
  constructor(private readonly settings: GstSettingsService) {}

  @Get()
  @Route({
    summary: "The tenant's GST settings (with an ETag).",
    description:
      'Until the first PUT: the defaults (disabled, no GSTIN, otherChargesSac 999799, interestTax AS_PRINCIPAL, nothing filed). The response carries an ETag; send it back as If-Match on PUT to avoid overwriting a concurrent change.',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: GstSettingsView, headers: ETAG_HEADER })
  get(@Tenant() tenant: TenantContext, @Res({ passthrough: true }) res: Response) {
    return this.settings.get(tenant).then(sendEtag(res));
  }

  @Put()
  @Route({
    summary: 'Replace the GST settings.',
    description:
      'Replaces the settings: a field left out (or null) takes its default; stateCode is read-only and ignored; unknown fields are refused. The GSTIN is trimmed and upper-cased, then checked (form and check character): 400 GSTIN_INVALID naming it. 400 VALIDATION_FAILED for an otherChargesSac that is not 6 digits, a lockedThrough that is not YYYY-MM, a malformed or repeated financialYear, or a filedOn after today or before its year ends. enabled true without gstin, legalName and address is 422 GST_SETTINGS_INCOMPLETE. Send If-Match with the ETag of a GET (412 on mismatch). Changes affect documents issued afterwards only. Each change is kept in the history and written as a gst-settings.updated event; a PUT that changes nothing stores nothing.',
    scopes: ['tenant-config:write'],
    problems: [GSTIN_INVALID, GST_SETTINGS_CHANGED, GST_SETTINGS_INCOMPLETE],
  })
  @ApiIfMatch()
  @ApiBody({ type: GstSettingsRequest, examples: GST_SETTINGS_EXAMPLES })
  @ApiOkResponse({ type: GstSettingsView, headers: ETAG_HEADER })
  replace(
    @Tenant() tenant: TenantContext,
    @Body() body: GstSettingsRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.settings.replace(tenant, body, ifMatch).then(sendEtag(res));
  }

  @Get('history')
  @Route({
    summary: 'Every stored version of the GST settings, newest first, with who and when.',
    description: 'Empty until the first change (the defaults are not a stored version).',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: [GstSettingsVersion] })
  history(@Tenant() tenant: TenantContext): Promise<GstSettingsVersion[]> {
    return this.settings.history(tenant);
  }
}
