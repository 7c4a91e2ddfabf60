import { defineProblem } from '@/common/app-error';

export const NUMBERING_EXHAUSTED = defineProblem({
  status: 409,
  code: 'NUMBERING_EXHAUSTED',
  detail: (type: string, attempts: number) =>
    `Could not find a free ${type} number after ${attempts} attempts; review the ${type} pattern.`,
  example: ['receipt', 1000],
});
