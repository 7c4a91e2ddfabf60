import { ApiProperty } from '@nestjs/swagger';
import { PageMetaView } from '@/search/search-page';
import { DemandView } from './demand.view';

/** One page of POST /demands/search, each demand with its splits. */
export class DemandPage extends PageMetaView {
  @ApiProperty({ description: 'The demands of this page, with their splits.', type: [DemandView] })
  content: DemandView[];
}
