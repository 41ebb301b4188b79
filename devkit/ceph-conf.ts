// The ceph.conf of a throwaway single-node cluster: one monitor on a msgr v1 address, one OSD that keeps
// objects in memory (memstore), pools of size 1, no authentication, everything under one folder.

export interface CephConfOptions {
  dir: string;
  fsid: string;
  monPort: number;
  /** Upper bound of what the memstore OSD may hold in memory (it allocates as objects arrive). */
  memstoreBytes: number;
}

export function cephConf({ dir, fsid, monPort, memstoreBytes }: CephConfOptions): string {
  return `[global]
fsid = ${fsid}
mon host = v1:127.0.0.1:${monPort}
public addr = 127.0.0.1
ms bind msgr2 = false
auth cluster required = none
auth service required = none
auth client required = none
keyring = ${dir}/keyring
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
crash dir = ${dir}/crash
mon data = ${dir}/mon/$name
osd data = ${dir}/osd/$name
# The folder sits on a shared disk: never let its free space stop the monitor.
mon data avail warn = 1
mon data avail crit = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
osd objectstore = memstore
# The OSD would place itself in the CRUSH map at start, and under load it can ask the monitor before it
# knows the cluster's fsid ('wrong fsid', and it exits). The start places it beforehand instead.
osd crush update on start = false
osd class update on start = false
memstore device bytes = ${memstoreBytes}
# A 2-core machine: few worker threads.
osd op num shards = 1
osd op num threads per shard = 2
rgw thread pool size = 32
# Deleted data is freed within seconds, not after the default two hours: the OSD keeps it in memory.
rgw gc obj min wait = 0
rgw gc processor period = 5
`;
}
