import { AppError } from '@/common/app-error';
import {
  consistencyTokenOf,
  lsnToToken,
  parseLsn,
  positionOfCommit,
} from '@/platform/replicas/consistency-token';
import { isReplicaRead } from '@/platform/replicas/read-replicas';

describe(consistencyTokenOf.name, () => {
  it('reads pg_lsn text as a number that orders like the log', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/3A1C2F8')).toBe(0x3a1c2f8n);
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
  });

  it('round-trips a position through the token', () => {
    for (const text of ['0/0', '0/3A1C2F8', '16/B374D848', 'FFFFFFFF/FFFFFFFF']) {
      expect(lsnToToken(parseLsn(text)!)).toBe(text);
      expect(consistencyTokenOf(text)).toBe(parseLsn(text));
    }
    expect(consistencyTokenOf('0/3a1c2f8')).toBe(0x3a1c2f8n);
    expect(consistencyTokenOf(undefined)).toBeUndefined();
  });

  it('takes an empty header as no token', () => {
    expect(consistencyTokenOf('')).toBeUndefined();
    expect(consistencyTokenOf('  ')).toBeUndefined();
  });

  it.each(['yesterday', '0/', '/0', '1/2/3', 'G/0', '123456789/0', '0/-1', '0x1/0'])(
    'refuses %j with 400 INVALID_CONSISTENCY_TOKEN',
    (bad) => {
      expect(() => consistencyTokenOf(bad)).toThrow(AppError);
      try {
        consistencyTokenOf(bad);
      } catch (error) {
        expect(error).toMatchObject({ status: 400, code: 'INVALID_CONSISTENCY_TOKEN' });
      }
    },
  );

  it('refuses the header sent twice', () => {
    expect(() => consistencyTokenOf(['0/1', '0/2'])).toThrow(AppError);
  });
});

describe(positionOfCommit.name, () => {
  it("reads the position from the SELECT after a COMMIT, and refuses anything but a COMMIT's", () => {
    const select = { command: 'SELECT', rows: [{ lsn: '0/3A1C2F8' }] };
    expect(positionOfCommit([{ command: 'COMMIT', rows: [] }, select])).toBe(0x3a1c2f8n);
    // An aborted transaction's COMMIT answers ROLLBACK: the write did not happen.
    expect(() => positionOfCommit([{ command: 'ROLLBACK', rows: [] }, select])).toThrow(
      'COMMIT answered ROLLBACK',
    );
    expect(() => positionOfCommit({ command: 'COMMIT', rows: [] })).toThrow();
    expect(() => positionOfCommit([{ command: 'COMMIT', rows: [] }])).toThrow('no WAL position');
    expect(() =>
      positionOfCommit([{ command: 'COMMIT' }, { command: 'SELECT', rows: [{ lsn: 'x' }] }]),
    ).toThrow('no WAL position');
  });
});

describe(isReplicaRead.name, () => {
  it('sends GETs and marked reads to a replica, and nothing under If-Match or marked primary', () => {
    expect(isReplicaRead('GET', {}, false)).toBe(true);
    expect(isReplicaRead('POST', { readRoute: true }, false)).toBe(true);
    expect(isReplicaRead('POST', {}, false)).toBe(false);
    expect(isReplicaRead('PUT', {}, false)).toBe(false);
    expect(isReplicaRead('GET', { primaryOnly: true }, false)).toBe(false);
    expect(isReplicaRead('GET', {}, true)).toBe(false);
    expect(isReplicaRead('POST', { readRoute: true }, true)).toBe(false);
  });
});
