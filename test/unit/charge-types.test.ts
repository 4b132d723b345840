import { describe, expect, it } from 'vitest';
import { CHARGE_TYPE } from '../../src/domain/credits/charge-types.js';

describe('CHARGE_TYPE', () => {
  it('keeps the job_type values stored in ledger rows, answered in the ledger and used as metric labels', () => {
    expect(CHARGE_TYPE).toEqual({
      submission: 'submission',
      transcription: 'transcription',
      generation: 'generation',
      liveBatch: 'live_batch',
      personaPortrait: 'persona.portrait',
      personaSwap: 'persona.swap',
    });
  });
});
