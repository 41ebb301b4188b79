// Handling a message of the protocol (protocol.ts), from the senders ALLOWED_SENDERS names only.
// Who is who comes from the browser adapter: what the browser reports of a sender, never the message.
import { senderAllowed } from '../../lib/messaging/senders';
import { vapi } from '../browser';
import { ALLOWED_SENDERS } from './protocol';
import { messaging } from './send';

/** A message refused for its sender; the sender's promise rejects with it. */
export class RefusedMessage extends Error {
  override name = 'RefusedMessage';
}

/** Handles one message type, from the senders ALLOWED_SENDERS names for it only. */
export const onMessage: typeof messaging.onMessage = (type, handler) =>
  messaging.onMessage(type, (message) => {
    if (!senderAllowed(ALLOWED_SENDERS[type], message.sender, vapi.senderFacts()))
      throw new RefusedMessage(`Hushdrop does not accept "${String(type)}" from this sender.`);
    return handler(message);
  });
