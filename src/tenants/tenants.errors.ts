import { defineProblem } from '@/common/app-error';

export const TENANT_EXISTS = defineProblem({
  status: 409,
  code: 'TENANT_EXISTS',
  detail: (key: string) => `A tenant with key "${key}" already exists.`,
  example: ['demo'],
});
