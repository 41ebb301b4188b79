// What a deletion link's answer means. The server answers an HTML page (HTTP 200) whose text
// says the file "has been Deleted" or "was unable to be Deleted"; an unknown file is a 404.
export type DeletionOutcome = 'deleted' | 'refused' | 'gone';

export function interpretDeletion(status: number, body: string): DeletionOutcome {
  if (status === 404 || status === 410) return 'gone';
  if (status >= 200 && status < 300 && /has been deleted/i.test(body) && !/unable to be deleted/i.test(body))
    return 'deleted';
  return 'refused';
}

export const DELETION_MESSAGES: Record<DeletionOutcome, string> = {
  deleted: 'The file was deleted from the server.',
  refused: 'The server did not delete the file. The deletion link may be wrong or already used.',
  gone: 'The server no longer has this file (it was deleted or has expired).',
};
