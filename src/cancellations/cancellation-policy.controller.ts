import { Body, Controller, Get, Headers, Put, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { ApiIfMatch, etagHeader, sendEtag } from '@/http/etag';
import { Route } from '@/http/route.decorator';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { CancellationPolicyService } from './cancellation-policy.service';
import { CANCELLATION_POLICY_CHANGED } from './cancellations.errors';
import {
  CANCELLATION_POLICY_EXAMPLES,
  CancellationPolicyRequest,
} from './dto/cancellation-policy.request';
import { CancellationPolicyVersion, CancellationPolicyView } from './dto/cancellation-policy.view';

const ETAG_HEADER = etagHeader('cancellation policy');

@ApiTags('cancellations')
@Controller('tenant/cancellation-policy')
export class CancellationPolicyController {
  constructor(private readonly policies: CancellationPolicyService) {}

  @Get()
  @Route({
    summary: "The tenant's cancellation policy (with an ETag).",
    description:
      'Until the first PUT: the defaults (MAHARERA_2022, percent 10, no bands, refundDays 45). The response carries an ETag; send it back as If-Match on PUT.',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: CancellationPolicyView, headers: ETAG_HEADER })
  get(@Tenant() tenant: TenantContext, @Res({ passthrough: true }) res: Response) {
    return this.policies.get(tenant).then(sendEtag(res));
  }

  @Put()
  @Route({
    summary: 'Replace the cancellation policy.',
    description:
      'Replaces the policy: a field left out (or null) takes its default; unknown fields are refused. 400 VALIDATION_FAILED for an unknown rule, a percent outside 0 to 100 or with more than two decimals, refundDays outside 1 to 365, or bands that are not 1 to 10 with the first fromDay 0 and fromDay strictly increasing (BANDS requires them). Send If-Match with the ETag of a GET (412 on mismatch). Cancellations made before keep their frozen figures. Each change is kept in the history and written as a cancellation-policy.updated event; a PUT that changes nothing stores nothing.',
    scopes: ['tenant-config:write'],
    problems: [CANCELLATION_POLICY_CHANGED],
  })
  @ApiIfMatch()
  @ApiBody({ type: CancellationPolicyRequest, examples: CANCELLATION_POLICY_EXAMPLES })
  @ApiOkResponse({ type: CancellationPolicyView, headers: ETAG_HEADER })
  replace(
    @Tenant() tenant: TenantContext,
    @Body() body: CancellationPolicyRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.policies.replace(tenant, body, ifMatch).then(sendEtag(res));
  }

  @Get('history')
  @Route({
    summary: 'Every stored version of the cancellation policy, newest first, with who and when.',
    description: 'Empty until the first change (the defaults are not a stored version).',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: [CancellationPolicyVersion] })
  history(@Tenant() tenant: TenantContext): Promise<CancellationPolicyVersion[]> {
    return this.policies.history(tenant);
  }
}
