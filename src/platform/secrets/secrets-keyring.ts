import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/platform/config/app-config';
import { loadOrCreateLocalSecrets } from '@/platform/config/local-secrets';
import { SecretBox } from './secret-box';

/**
 * The SecretBox of the configuration: SECRETS_KEY (and SECRETS_KEY_PREVIOUS), else the key
 * generated once into DATA_DIR, like the development JWT secret (never in production).
 */
export function secretBoxFor(config: AppConfig): SecretBox {
  const { key, previousKey } = config.secrets;
  if (key) return new SecretBox(key, previousKey ? [previousKey] : []);
  if (config.isProduction) {
    throw new Error('A generated SECRETS_KEY is refused when NODE_ENV=production');
  }
  return new SecretBox(Buffer.from(loadOrCreateLocalSecrets(config.dataDir).secretsKey, 'base64'));
}

/**
 * The application's SecretBox, made on first use: a process that never seals or opens a secret
 * never creates DATA_DIR's key.
 */
@Injectable()
export class SecretsKeyring {
  private box?: SecretBox;

  constructor(private readonly config: AppConfig) {}

  get keys(): SecretBox {
    return (this.box ??= secretBoxFor(this.config));
  }

  seal(plain: Buffer, context: string): Buffer {
    return this.keys.seal(plain, context);
  }

  open(sealed: Buffer, context: string): Buffer {
    return this.keys.open(sealed, context);
  }
}
