import { Link } from '../router';

/** Previous and next page links of a list (`?page=N`), with "Page n of m" between them. */
export function Pager({
  label,
  page,
  pagination,
  hrefOf,
}: {
  label: string;
  page: number;
  pagination: { current_page: number; total_pages: number; has_next_page: boolean } | undefined;
  hrefOf: (page: number) => string;
}) {
  const p = pagination;
  if (!p || p.total_pages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      {page > 1 ? (
        <Link href={hrefOf(page - 1)} rel="prev">
          Previous page
        </Link>
      ) : (
        <span />
      )}
      <span>
        Page {p.current_page} of {p.total_pages}
      </span>
      {p.has_next_page ? (
        <Link href={hrefOf(page + 1)} rel="next">
          Next page
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
