import { segmentNumber, skipInBaseBackup } from './embedded-backup';

describe('what a base backup copies', () => {
  const skipped = (rel: string, siblings: string[] = []) =>
    skipInBaseBackup(rel, rel.split('/').pop()!, new Set(siblings));

  it('leaves out the run-time files and the contents of the run-time directories', () => {
    for (const rel of ['postmaster.pid', 'postmaster.opts', 'backup_label', 'standby.signal']) {
      expect(skipped(rel)).toBe(true);
    }
    for (const rel of ['pg_wal/000000010000000000000003', 'pg_stat_tmp/x', 'pg_replslot/s']) {
      expect(skipped(rel)).toBe(true);
    }
    // The directories themselves are kept (the server expects them), and so is what matters.
    for (const rel of ['pg_wal', 'pg_stat_tmp', 'PG_VERSION', 'global/pg_control', 'base/5/1259']) {
      expect(skipped(rel)).toBe(false);
    }
  });

  it('leaves out temporary files and relations, and the relcache init file', () => {
    expect(skipped('base/pgsql_tmp')).toBe(true);
    expect(skipped('base/5/t3_16384')).toBe(true);
    expect(skipped('base/5/pg_internal.init')).toBe(true);
  });

  it("keeps only an unlogged relation's init fork (recovery resets the relation to it)", () => {
    const siblings = ['16400', '16400.1', '16400_fsm', '16400_vm', '16400_init', '16500'];
    expect(skipped('base/5/16400', siblings)).toBe(true);
    expect(skipped('base/5/16400.1', siblings)).toBe(true);
    expect(skipped('base/5/16400_fsm', siblings)).toBe(true);
    expect(skipped('base/5/16400_vm', siblings)).toBe(true);
    expect(skipped('base/5/16400_init', siblings)).toBe(false);
    expect(skipped('base/5/16500', siblings)).toBe(false);
  });
});

describe('WAL segment numbers', () => {
  it('count across the log id boundary (16 MB segments: 256 per id)', () => {
    const size = 16n * 1024n * 1024n;
    expect(segmentNumber('0000000100000000000000FF', size) + 1n).toBe(
      segmentNumber('000000010000000100000000', size),
    );
    expect(segmentNumber('00000001000000000000000A', size)).toBe(10n);
  });
});
