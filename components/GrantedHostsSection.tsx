// Options section: the sites Hushdrop was allowed to reach (asked when a server was saved or a file
// was right-clicked), each with a button that takes the permission back.
import { useEffect, useState } from 'preact/hooks';
import type { GrantedHost } from '../lib/granted-hosts';
import { t } from '../lib/i18n';
import { grantedHosts, revokeHost } from '../platform/permissions';
import { RevocableList } from './RevocableList';

export function GrantedHostsSection() {
  const [hosts, setHosts] = useState<GrantedHost[]>();
  const [status, setStatus] = useState('');

  const reload = () => grantedHosts().then(setHosts);
  useEffect(() => {
    reload();
  }, []);

  async function revoke(name: string) {
    const host = hosts?.find((h) => h.host === name);
    if (!host) return;
    const removed = await revokeHost(host).catch(() => false);
    setStatus(t(removed ? 'hostRevoked' : 'hostNotRevoked', host.host));
    await reload();
  }

  return (
    <section class="card" id="sites" aria-labelledby="sites-h">
      <h2 id="sites-h">{t('grantedSites')}</h2>
      <p class="small">{t('grantedSitesExplained')}</p>
      <RevocableList
        items={hosts?.map((h) => h.host)}
        none={t('grantedSitesNone')}
        status={status}
        onRevoke={revoke}
      />
    </section>
  );
}
