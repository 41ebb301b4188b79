// Sending a message of the protocol (protocol.ts). Receiving, with its sender check, is receive.ts.
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { ProtocolMap } from './protocol';

export const messaging = defineExtensionMessaging<ProtocolMap>();

export const sendMessage = messaging.sendMessage;
