import { INestApplication } from '@nestjs/common';
import { AppConfig } from '@/common/config/app-config';

export async function seedDemoData(_app: INestApplication, _config: AppConfig): Promise<void> {}
