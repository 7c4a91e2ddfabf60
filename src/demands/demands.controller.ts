import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiIdParam } from '@/http/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { Route } from '@/http/route.decorator';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { NUMBERING_EXHAUSTED } from '@/numbering/numbering.errors';
import { BOOKING_CANCELLED, DEMAND_NOT_FOUND, DEMAND_SPLITS_MISMATCH } from './demands.errors';
import { DemandsService } from './demands.service';
import { ApiSearchQuery } from '@/search/search-swagger';
import type { RawSearchQuery } from '@/search/search-request';
import { DEMAND_SEARCH } from './demand-search';
import { DemandPage } from './dto/demand-page.view';
import { DemandSearchFilterDto } from './dto/demand-search.request';
import { CreateDemandRequest } from './dto/create-demand.request';
import { DemandView } from './dto/demand.view';

@ApiTags('demands')
@Controller('demands')
export class DemandsController {
  constructor(private readonly demands: DemandsService) {}

  @Post()
  @HttpCode(201)
  @Route({
    summary: 'Raise a demand on a booking, split between payers.',
    description:
      "The demand's unit and buyerName are copied from the booking. The splits must add up to totalAmount exactly. The booking must exist in this tenant (another tenant's booking is not found) and be active. The demand number is issued from the demand series ({PARENT} = the booking number) and each split's from the demand-split series ({PARENT} = the demand number), all dated by demandDate.",
    scopes: ['receipts:write'],
    problems: [BOOKING_NOT_FOUND, BOOKING_CANCELLED, NUMBERING_EXHAUSTED, DEMAND_SPLITS_MISMATCH],
    idempotent: true,
  })
  @ApiBody({
    type: CreateDemandRequest,
    examples: {
      milestone: {
        summary: 'Milestone demand shared by the buyer and the lending bank',
        value: {
          booking: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
          milestone: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
          demandType: 'MILESTONE',
          totalAmount: 250000,
          dueDate: '2026-12-15',
          demandDate: '2026-11-22',
          remarks: 'Plinth completion, tower B',
          splits: [
            { payerType: 'BUYER', payerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a', amount: 50000 },
            { payerType: 'BANK', payerId: '7e6d5c4b-3a2f-4e1d-8c0b-9a8f7e6d5c4b', amount: 200000 },
          ],
        },
      },
      manual: {
        summary: 'Manual demand paid by the buyer alone',
        value: {
          booking: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
          milestone: null,
          demandType: 'MANUAL',
          totalAmount: 15000.5,
          dueDate: '2026-12-01',
          remarks: '',
          splits: [
            {
              payerType: 'BUYER',
              payerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
              amount: 15000.5,
            },
          ],
        },
      },
    },
  })
  @ApiCreatedResponse({
    type: DemandView,
    description: 'The demand (status PENDING) with its splits.',
  })
  create(@Tenant() tenant: TenantContext, @Body() body: CreateDemandRequest): Promise<DemandView> {
    return this.demands.create(tenant, body);
  }

  @Post('search')
  @HttpCode(200)
  @Route({
    summary: 'Search demands with filters, sorting and paging.',
    description:
      'The request grammar, limits, page object and 400s of POST /receipts/search, over the demand catalogue. Each demand comes with its splits. Default sort dueDate,asc. Overdue demands: dueDate LT <today> AND status IN PENDING,PARTIALLY_PAID. totalElements is exact (counted unless the page proves it). keyword matches the demand number or the buyer name.',
    scopes: ['receipts:read'],
    replicaRead: true,
  })
  @ApiSearchQuery(DEMAND_SEARCH)
  @ApiBody({
    type: [DemandSearchFilterDto],
    required: false,
    examples: {
      none: { summary: 'Every demand', value: [] },
      overdue: {
        summary: 'Overdue on 23 Nov 2026',
        value: [
          { field: 'dueDate', query: '2026-11-23', type: 'LT' },
          { field: 'status', query: 'PENDING,PARTIALLY_PAID', type: 'IN' },
        ],
      },
      buyer: {
        summary: 'By buyer or demand number',
        value: [{ field: 'keyword', query: 'iyer', type: 'CONTAINS' }],
      },
    },
  })
  @ApiOkResponse({ type: DemandPage })
  search(@Tenant() tenant: TenantContext, @Query() query: RawSearchQuery, @Body() body: unknown) {
    return this.demands.search(tenant, query, body);
  }

  @Get(':id')
  @Route({
    summary: 'One demand with its splits and their paid and pending amounts.',
    description: "A demand of the caller's tenant by id; another tenant's demand is 404.",
    scopes: ['receipts:read'],
    problems: [DEMAND_NOT_FOUND],
  })
  @ApiIdParam('Demand id.')
  @ApiOkResponse({ type: DemandView })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<DemandView> {
    return this.demands.findOne(tenant, id);
  }
}
