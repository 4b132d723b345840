import { Link, href } from '../router';
import { usePageTitle } from '../hooks';

export function NotFound() {
  usePageTitle('Page not found');
  return (
    <section>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is no page at this address. <Link href={href('home')}>Go to Home</Link>.
      </p>
    </section>
  );
}
