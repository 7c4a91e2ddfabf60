import { Module } from '@nestjs/common';
import { BooksController, BooksSettingsController } from './books.controller';
import { BooksService } from './books.service';
import { BooksSettingsService } from './books-settings.service';

/**
 * The books (docs/returns-and-books.md, "Books"): the ledgers a tenant's accounting vouchers post
 * to (GET / PUT /tenant/books) and the vouchers of a period for TallyPrime or as CSV
 * (GET /books/vouchers), read-only over every record.
 */
@Module({
  controllers: [BooksSettingsController, BooksController],
  providers: [BooksSettingsService, BooksService],
})
export class BooksModule {}
