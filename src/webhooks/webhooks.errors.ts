import { defineProblem } from '@/common/app-error';

export const WEBHOOK_NOT_FOUND = defineProblem({
  status: 404,
  code: 'WEBHOOK_NOT_FOUND',
  detail: (id: string) => `Webhook subscription ${id} was not found.`,
  example: ['9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const WEBHOOK_LIMIT_REACHED = defineProblem({
  status: 409,
  code: 'WEBHOOK_LIMIT_REACHED',
  detail: (max: number) => `A tenant has at most ${max} webhook subscriptions; delete one first.`,
  example: [100],
});

/** The host did not resolve (in time); the field error says `host <host> <why>`. */
export const WEBHOOK_URL_UNRESOLVABLE = defineProblem({
  status: 400,
  code: 'WEBHOOK_URL_UNRESOLVABLE',
  detail: (host: string, why: string) => `The webhook host ${host} ${why}.`,
  example: ['erp.example.com', 'did not resolve within 2000 ms'],
});

/** What a forbidden target is told, in the field error and (prefixed) in the detail. */
export const forbiddenTargetMessage = (host: string, address: string): string =>
  `host ${host} resolves to ${address}, a loopback, private or reserved address; ` +
  'such targets are refused unless WEBHOOK_ALLOW_PRIVATE=true';

export const WEBHOOK_URL_FORBIDDEN = defineProblem({
  status: 400,
  code: 'WEBHOOK_URL_FORBIDDEN',
  detail: (host: string, address: string) =>
    `The webhook ${forbiddenTargetMessage(host, address)}.`,
  example: ['erp.example.com', '10.0.0.12'],
});
