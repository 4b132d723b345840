import { Type } from '@sinclair/typebox';
import { IsoDate, NullableIsoDate } from './common.js';
import { PaginationSchema } from './pagination.schemas.js';

export const WorkspaceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    is_personal: Type.Boolean(),
    role: Type.String({ description: 'Always `owner`: keys are issued to workspace owners.' }),
    plan_name: Type.String(),
    plan_is_free: Type.Boolean(),
    credits: Type.Integer(),
    credits_unlimited: Type.Boolean(),
    credits_unlimited_until: NullableIsoDate,
    member_count: Type.Integer(),
  },
  { $id: 'Workspace' },
);

export const BalanceSchema = Type.Object(
  {
    balance: Type.Integer(),
    unlimited: Type.Boolean(),
    unlimited_until: NullableIsoDate,
  },
  { $id: 'Balance' },
);

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.String(),
    created_at: IsoDate,
    kind: Type.String({ description: '`grant`, `debit`, `charge` or `refund`.' }),
    reason: Type.String(),
    amount: Type.Integer({ description: 'Signed: negative takes credits, positive gives them. Under free usage the would-be amount.' }),
    balance_after: Type.Integer(),
    waived: Type.Boolean(),
    job_type: Type.Union([Type.String(), Type.Null()]),
    job_id: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'LedgerEntry' },
);

export const LedgerListSchema = Type.Object({ entries: Type.Array(LedgerEntrySchema), pagination: PaginationSchema }, { $id: 'LedgerList' });
