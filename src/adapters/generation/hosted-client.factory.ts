import type { HostedClientConfig, HostedGenerationClient } from '../../ports/hosted-generation.js';
import { FalClient } from './fal.client.js';
import { OpenAiImagesClient } from './openai-images.client.js';
import { ReplicateClient } from './replicate.client.js';

/** The client of a catalog entry's provider (HostedClientFactory). */
export function createHostedClient(cfg: HostedClientConfig): HostedGenerationClient {
  switch (cfg.provider) {
    case 'fal':
      return new FalClient(cfg);
    case 'replicate':
      return new ReplicateClient(cfg);
    case 'openai':
      return new OpenAiImagesClient(cfg);
  }
}
