import { z } from "zod";
import { MESSAGE_LIMITS, MESSAGE_POLICIES, MESSAGING_MESSAGES } from "./messaging";

const body = z
  .string({ error: MESSAGING_MESSAGES.bodyRequired })
  .trim()
  .max(MESSAGE_LIMITS.bodyMax, MESSAGING_MESSAGES.bodyTooLong);

/** POST /api/conversations: open (or find) the conversation with a person, optionally sending a first message. */
export const openConversationSchema = z
  .object({ user_id: z.string().min(1).max(100), body: body.optional(), image_key: z.string().max(300).optional() })
  .strict();

/** POST /api/conversations/:id/messages: text, an image from the uploads pipeline, or both (at least one). */
export const sendMessageSchema = z
  .object({ body: body.default(""), image_key: z.string().max(300).optional() })
  .strict()
  .refine((v) => v.body.length > 0 || v.image_key, { message: MESSAGING_MESSAGES.bodyRequired, path: ["body"] });

/** PATCH /api/messages/:id */
export const editMessageSchema = z.object({ body: body.min(1, MESSAGING_MESSAGES.bodyRequired) }).strict();

/** PUT /api/me/messaging: who may start a conversation with me. */
export const messagingSettingsSchema = z.object({ policy: z.enum(MESSAGE_POLICIES) }).strict();

const person = z.object({
  id: z.string(),
  username: z.string(),
  full_name: z.string(),
  avatar_url: z.string().nullable(),
});

export const messageDto = z.object({
  id: z.string(),
  conversation_id: z.string(),
  sender_id: z.string(),
  /** Plain text; the client makes links clickable (safe schemes only) and never renders markup. "" when deleted. */
  body: z.string(),
  image_url: z.string().nullable(),
  created_at: z.string(),
  edited_at: z.string().nullable(),
  deleted: z.boolean(),
});
export type MessageDto = z.infer<typeof messageDto>;

export const conversationDto = z.object({
  id: z.string(),
  other: person,
  last_message: messageDto.nullable(),
  unread_count: z.number().int(),
  /** When the other person last read up to (sent/seen marks): the id of the newest message they have seen. */
  other_last_read_id: z.string().nullable(),
  /** Whether I can send here now (false: blocked either way, no shared community, their policy). No reason given. */
  can_send: z.boolean(),
  /** Whether I blocked them. */
  blocked: z.boolean(),
  updated_at: z.string(),
});
export type ConversationDto = z.infer<typeof conversationDto>;

export const inboxDto = z.object({
  conversations: z.array(conversationDto),
  next_cursor: z.string().nullable(),
  /** Conversations with unread messages (the header's badge). */
  unread: z.number().int(),
});

export const messagePageDto = z.object({
  conversation: conversationDto,
  /** Newest first. */
  messages: z.array(messageDto),
  /** Cursor for older messages. */
  next_cursor: z.string().nullable(),
});

export const blockDto = z.object({ user: person, created_at: z.string() });

/** POST /api/conversations/:id/read: read up to a message (default: the newest). */
export const markReadSchema = z.object({ message_id: z.string().max(100).optional() }).strict();

/** GET and PUT /api/me/messaging. */
export const messagingSettingsDto = z.object({ policy: z.enum(MESSAGE_POLICIES) });

/** GET /api/messages/unread-count: conversations with unread messages (the header's badge). */
export const unreadMessagesDto = z.object({ unread: z.number().int() });

/** GET /api/me/blocks, newest first. */
export const blocksDto = z.object({ blocks: z.array(blockDto) });

/** PUT and DELETE /api/users/:userId/block. */
export const blockStateDto = z.object({ blocked: z.boolean() });
