import { CutroomError } from '@cutroom/sdk/browser';
import { describe } from '../errors';

/** `top_up_url` of a 402 INSUFFICIENT_CREDITS (persona and generation calls), when it is a web address. */
function topUpUrl(error: unknown): string | null {
  if (!(error instanceof CutroomError) || error.code !== 'INSUFFICIENT_CREDITS') return null;
  const url = error.extra?.top_up_url;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : null;
}

/**
 * A refused start, in words (a sentence of the page's own, or any error through describe()), with a
 * link to buy credits when the service names one.
 */
export function Refusal({ id, error }: { id?: string; error: unknown }) {
  const topUp = topUpUrl(error);
  return (
    <p id={id} class="error" role="alert">
      {typeof error === 'string' ? error : describe(error)}
      {topUp && (
        <>
          {' '}
          <a href={topUp} target="_blank" rel="noopener noreferrer">
            Top up credits (opens in a new tab)
          </a>
        </>
      )}
    </p>
  );
}
