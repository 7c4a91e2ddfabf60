import type { TransportSingleOptions } from 'pino';

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Human-readable lines (pino-pretty) for a person at a terminal, JSON for everything else
 * (pipes, files, log shippers). `auto` decides by whether stdout is a TTY.
 */
export function prettyLogTransport(
  format: LogFormat,
  isTty: boolean = process.stdout.isTTY === true,
): TransportSingleOptions | undefined {
  if (format === 'json' || (format === 'auto' && !isTty)) return undefined;
  return {
    target: 'pino-pretty',
    options: {
      colorize: isTty,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
      hideObject: false,
    },
  };
}
