import { Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import {
  DatabaseAvailability,
  isDatabaseUnavailable,
} from '@/platform/lifecycle/database-availability';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['connection reset', withCode('ECONNRESET', 'read ECONNRESET')],
    ['broken pipe', withCode('EPIPE', 'write EPIPE')],
    ['socket timeout', withCode('ETIMEDOUT')],
    ['terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg-pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    [
      'client not queryable',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['08006 connection_failure', withCode('08006')],
    ['08001 cannot establish', withCode('08001')],
    ['57P01 admin shutdown', withCode('57P01', 'terminating connection due to administrator')],
    ['57P02 crash shutdown', withCode('57P02')],
    ['57P03 starting up', withCode('57P03', 'the database system is starting up')],
    ['53300 too many connections', withCode('53300')],
    [
      'AggregateError of refusals (IPv4 + IPv6)',
      Object.assign(new AggregateError([withCode('ECONNREFUSED')], ''), {}),
    ],
    [
      'query on a runner released after its connection failed',
      Object.assign(new Error('already released'), {
        name: 'QueryRunnerProviderAlreadyReleasedError',
      }),
    ],
    ['wrapped in cause', new Error('transaction failed', { cause: withCode('57P01') })],
  ])('%s is unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('sees through TypeORM QueryFailedError.driverError', () => {
    const error = new QueryFailedError('SELECT 1', [], withCode('57P01'));
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['lock timeout (DATABASE_BUSY)', withCode('55P03')],
    ['statement timeout (DATABASE_BUSY)', withCode('57014')],
    ['serialization failure', withCode('40001')],
    ['unique violation', withCode('23505')],
    ['bad input', withCode('22P02')],
    ['a code merely starting with 08 text', withCode('08')],
    ['plain error', new Error('boom')],
    ['undefined', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('%s is not unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('survives a cyclic cause chain', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe(DatabaseAvailability.name, () => {
  it('warns once when the database goes away and logs once, with the count, when it is back', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const availability = new DatabaseAvailability();
    availability.recordSuccess();
    expect(log).not.toHaveBeenCalled();
    for (let i = 0; i < 5; i++) availability.recordFailure(withCode('ECONNREFUSED'));
    expect(availability.isDown).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    availability.recordSuccess();
    availability.recordSuccess();
    expect(availability.isDown).toBe(false);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toMatchObject({ failedRequests: 5 });
    warn.mockRestore();
    log.mockRestore();
  });
});
