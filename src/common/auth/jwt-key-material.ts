import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/common/config/app-config';
import { loadOrCreateLocalSecrets } from '@/database/local-secrets';

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
}
