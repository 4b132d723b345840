/**
 * What a charge (and its refund) is for: the ledger row's `job_type`, with `job_id` naming the record
 * (docs/api-decisions.md, the ledger). Stored in `ledger_entries.job_type`, answered as the ledger's
 * `job_type` and used as the credit metrics' label, so the values never change. They are not queue job
 * names (src/shared/jobs.ts), though the persona ones read alike; a row's `kind` (charge, refund, grant…)
 * is another column.
 */
export const CHARGE_TYPE = {
  submission: 'submission',
  transcription: 'transcription',
  generation: 'generation',
  /** A live monitor's batch; the job id is `<broadcast id>:<batch index>` (batchJobId). */
  liveBatch: 'live_batch',
  personaPortrait: 'persona.portrait',
  personaSwap: 'persona.swap',
} as const;
