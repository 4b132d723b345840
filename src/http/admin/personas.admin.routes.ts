import { Type } from '@sinclair/typebox';
import type { PersonaPricesService } from '../../domain/personas/persona-prices.service.js';
import type { Api } from '../types.js';

const Price = Type.Integer({ minimum: 0, maximum: 100_000 });

export const PersonaPricesSchema = Type.Object(
  {
    image: Type.Optional(Price),
    swap_standard_per_second: Type.Optional(Price),
    swap_high_per_second: Type.Optional(Price),
  },
  { additionalProperties: false },
);

export interface AdminPersonaRoutesDeps {
  personaPrices: PersonaPricesService;
}

/** /admin/v1/personas/prices: the operator's persona prices in credits (before each plan's discount). */
export function adminPersonaRoutes(app: Api, deps: AdminPersonaRoutesDeps) {
  const schema = { hide: true };
  app.get('/personas/prices', { schema }, async () => deps.personaPrices.get());
  app.put('/personas/prices', { schema: { ...schema, body: PersonaPricesSchema } }, async (req) => deps.personaPrices.update(req.body));
}
