import { Injectable } from '@nestjs/common';
import { createSecretKey, KeyObject } from 'node:crypto';
import { AppConfig } from '@/platform/config/app-config';
import { loadOrCreateLocalSecrets } from '@/platform/config/local-secrets';

/** The HS256 secret: JWT_SECRET, else the one generated once into DATA_DIR (never in production). */
@Injectable()
export class JwtKeyMaterial {
  constructor(private readonly config: AppConfig) {}

  hmacSecret(): string {
    if (this.config.jwt.secret) return this.config.jwt.secret;
    if (this.config.isProduction) {
      throw new Error('A generated JWT secret is refused when NODE_ENV=production');
    }
    return loadOrCreateLocalSecrets(this.config.dataDir).jwtSecret;
  }

  /**
   * The secret as a KeyObject, built once: given a string, jsonwebtoken first tries (and fails)
   * to parse it as a public key on every verification, which costs ~0.7 ms of CPU per request.
   */
  hmacKey(): KeyObject {
    return createSecretKey(Buffer.from(this.hmacSecret(), 'utf8'));
  }
}
