import { Injectable, StreamableFile } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import Decimal from 'decimal.js';
import { FieldError } from '@/common/app-error';
import { Money } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { BankService } from '@/bank/bank.service';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { DemandsService } from '@/demands/demands.service';
import { DemandView } from '@/demands/dto/demand.view';
import { LetterDocumentsService } from '@/documents/letter-documents.service';
import { LetterAmount } from '@/documents/letter-pdf';
import { printedUnit } from '@/common/domain/printed-names';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { InterestService, payerFigures } from '@/interest/interest.service';
import { splitsOwingOn } from '@/ledger/as-of';
import { LedgerService } from '@/ledger/ledger.service';
import { paiseText } from '@/common/money/paise';
import { LetterView } from './dto/letter.view';
import { LetterInput, letterGst, payableLetter } from './letter';
import {
  LETTER_DEMAND_CANCELLED,
  LETTER_NOTHING_PAYABLE,
  LETTER_PAYER_NOT_FOUND,
} from './letters.errors';
import { parseLetterQuery, RawLetterQuery } from './letters-query';
import { validationFailed } from '@/http/errors/validation';

export function invalid(errors: FieldError[]) {
  return validationFailed(errors);
}

/** The DemandMeta part of a demand view (a letter carries no splits). */
export function demandMeta(demand: DemandView): LetterInput['demand'] {
  /* eslint-disable @typescript-eslint/no-unused-vars */
  const {
    splits,
    demandDate,
    interestThrough,
    chargeType,
    tax,
    grossAmount,
    invoice,
    gstCreditTimeBarred,
    ...meta
  } = demand;
  /* eslint-enable @typescript-eslint/no-unused-vars */
  return meta;
}

/**
 * GET /demands/{id}/letter (docs/letters.md): the demand letter from what each split of the
 * booking owes at asOf (the ledger's records and rules) and the interest due from the same records
 * (InterestService), composed by the pure letter.ts and printed by documents. Read-only.
 */
@Injectable()
export class LettersService {
  constructor(
    private readonly clock: Clock,
    private readonly demands: DemandsService,
    private readonly ledger: LedgerService,
    private readonly interest: InterestService,
    private readonly bank: BankService,
    private readonly tenants: TenantsService,
    private readonly documents: LetterDocumentsService,
  ) {}

  async letter(
    tenant: TenantContext,
    demandId: string,
    raw: RawLetterQuery,
  ): Promise<LetterView | StreamableFile> {
    const errors: FieldError[] = [];
    const query = parseLetterQuery(raw, this.clock.today(tenant), errors);
    if (errors.length > 0) throw invalid(errors);
    const demand = await this.demands.findOne(tenant, demandId);
    if (demand.status === 'CANCELLED') throw LETTER_DEMAND_CANCELLED.error(demandId);
    let payer: LetterInput['payer'] = null;
    if (query.payerId !== undefined) {
      const split = demand.splits.find((s) => s.payerId.toLowerCase() === query.payerId);
      if (!split) throw LETTER_PAYER_NOT_FOUND.error(query.payerId, demandId);
      payer = { payerId: split.payerId, payerType: split.payerType, payerName: split.payerName };
    }
    const records = await this.ledger.booking(tenant, demand.booking);
    if (!records) throw BOOKING_NOT_FOUND.error(demand.booking);
    const interest = await this.interest.fromRecords(tenant, records, query.asOf);
    const account = await this.bank.collectionAccount(tenant);
    const view = payableLetter(
      {
        tenantName: await this.tenantName(tenant),
        asOf: query.asOf,
        demand: demandMeta(demand),
        booking: {
          id: records.id,
          bookingNumber: records.booking_number,
          unit: records.unit_id,
          unitName: records.unit_name,
          buyerName: records.buyer_name,
          agreementValue: records.agreement_value,
        },
        payer,
        owed: splitsOwingOn(records, query.asOf).map((o) => ({
          demand: o.demand.id,
          payerId: o.split.payerId,
          dueDate: o.demand.dueDate,
          outstanding: paiseText(o.outstanding),
        })),
        interestDue: payerFigures(interest, payer?.payerId).due,
        gst: letterGst({
          invoice_number: demand.invoice?.number ?? null,
          tax: records.demands.find((d) => d.id === demand.id)?.tax ?? null,
        }),
        payTo: account && {
          name: account.name,
          accountNumber: account.account_number,
          ifsc: account.ifsc,
        },
      },
      tenant,
    );
    if (view === null) throw LETTER_NOTHING_PAYABLE.error(demandId, query.asOf);
    if (query.format === 'json') return view;
    const pdf = await this.pdf(view, tenant);
    const name = `letter-${demand.demandNumber.replace(/[^A-Za-z0-9._-]+/g, '-')}-${query.asOf.replace(/-/g, '')}`;
    return new StreamableFile(pdf, {
      type: 'application/pdf',
      disposition: `inline; filename="${name}.pdf"`,
      length: pdf.length,
    });
  }

  /** The tenant's name as letters are signed (its key if the record is gone). */
  async tenantName(tenant: TenantContext): Promise<string> {
    return (await this.tenants.findActiveByKey(tenant.tenantKey))?.name ?? tenant.tenantKey;
  }

  /** The printed letter of a view; rendered after the request's last read (CPU only). */
  pdf(view: LetterView, tenant: TenantContext): Promise<Buffer> {
    const amount = (m: Money): LetterAmount => ({
      amount: new Decimal(String(m.amount)).toFixed(2),
      formatted: m.formatted,
    });
    return this.documents.pdf({
      tenantName: view.tenant.name,
      locale: tenant.locale,
      currency: tenant.currency,
      currencySymbol: view.totalPayable.currencySymbol,
      letterDate: view.letterDate,
      payerType: view.payer?.payerType ?? null,
      payerName: view.payer?.payerName ?? null,
      bookingNumber: view.booking.bookingNumber,
      unit: printedUnit({ unitId: view.booking.unit, unitName: view.booking.unitName }),
      buyerName: view.booking.buyerName,
      agreementValue: view.booking.agreementValue && amount(view.booking.agreementValue),
      demandNumber: view.demand.demandNumber,
      demandType: view.demand.demandType,
      milestone: view.demand.milestone,
      remarks: view.demand.remarks,
      dueDate: view.dueDate,
      overdueSince: view.overdueSince,
      thisDemand: amount(view.thisDemand),
      previousDues: amount(view.previousDues),
      interestDue: amount(view.interestDue),
      totalPayable: amount(view.totalPayable),
      payTo: view.payTo,
      tdsNote: view.tdsNote,
      gstNote:
        view.gst &&
        `Includes GST ${view.gst.tax.currencySymbol}${view.gst.tax.formatted} of tax invoice ${view.gst.invoiceNumber}.`,
      date: new Date(`${view.letterDate}T00:00:00Z`),
    });
  }
}
