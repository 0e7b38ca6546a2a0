import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MESSAGE_LIMITS } from "#shared/messaging";
import {
  blocksDto,
  blockStateDto,
  conversationDto,
  editMessageSchema,
  inboxDto,
  markReadSchema,
  messageDto,
  messagePageDto,
  messagingSettingsDto,
  messagingSettingsSchema,
  openConversationSchema,
  sendMessageSchema,
  unreadMessagesDto,
} from "#shared/messaging.schemas";
import type { AppContext } from "#server/context";
import { errorResponses } from "#server/lib/schemas";
import { findBlocks, findMessagingSettings, setBlocked, updateMessagingSettings } from "./messages.blocks";
import {
  deleteMessage,
  editMessage,
  findConversation,
  findInbox,
  markConversationRead,
  openConversation,
  sendMessage,
  unreadConversations,
} from "./messages.service";
import { sendJsonText } from "#server/lib/json-reply";

const conversationParams = z.object({ id: z.string().min(1).max(100) });
const messageParams = z.object({ id: z.string().min(1).max(100) });
const userParams = z.object({ userId: z.string().min(1).max(100) });
const ONLY_THE_TWO =
  "Only the conversation's two people can read it; anyone else (staff and operators included) gets 404 as for a missing one.";
const REFUSED =
  "Refused with 403 and one text whatever the reason (a block either way, no shared community, their choice); " +
  "starting a conversation below a shared community's minimum level says which level.";

export const messageRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ["messages"];

  app.get(
    "/api/conversations",
    {
      schema: {
        tags,
        summary: "The signed-in person's conversations, newest first, with the unread total",
        description:
          "Conversations with people the viewer blocked are left out until they unblock. `q` keeps those whose " +
          "other person's name or username contains it.",
        querystring: z.object({
          q: z.string().max(100).optional(),
          cursor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(MESSAGE_LIMITS.inboxPage).default(MESSAGE_LIMITS.inboxPage),
        }),
        response: { 200: inboxDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await findInbox({ ctx, viewer: await ctx.requireViewer(request), ...request.query });
      // Sent as built (toConversationDto writes each field): the first page is kept serialized.
      return sendJsonText(reply, body);
    },
  );

  app.post(
    "/api/conversations",
    {
      schema: {
        tags,
        summary: "Open the conversation with a person (found, or started), optionally with a first message",
        description: REFUSED,
        body: openConversationSchema,
        response: { 200: conversationDto, ...errorResponses },
      },
    },
    async (request) => openConversation({ ctx, viewer: await ctx.requireViewer(request), input: request.body }),
  );

  app.get(
    "/api/conversations/:id",
    {
      schema: {
        tags,
        summary: "A conversation and a page of its messages, newest first (older ones with ?before=)",
        description: ONLY_THE_TWO,
        params: conversationParams,
        querystring: z.object({
          before: z.string().max(20).optional(),
          limit: z.coerce.number().int().min(1).max(MESSAGE_LIMITS.maxPage).default(MESSAGE_LIMITS.page),
        }),
        response: { 200: messagePageDto, ...errorResponses },
      },
    },
    async (request) =>
      findConversation({
        ctx,
        viewer: await ctx.requireViewer(request),
        conversationId: request.params.id,
        ...request.query,
      }),
  );

  app.post(
    "/api/conversations/:id/messages",
    {
      schema: {
        tags,
        summary: "Send a message (text, an image uploaded by the sender, or both)",
        description: `${ONLY_THE_TWO} ${REFUSED}`,
        params: conversationParams,
        body: sendMessageSchema,
        response: { 201: messageDto, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await sendMessage({
          ctx,
          viewer: await ctx.requireViewer(request),
          conversationId: request.params.id,
          input: request.body,
        }),
      ),
  );

  app.post(
    "/api/conversations/:id/read",
    {
      schema: {
        tags,
        summary: "Mark the conversation read up to a message (default: the newest); answers the unread total",
        description: ONLY_THE_TWO,
        params: conversationParams,
        body: markReadSchema,
        response: { 200: unreadMessagesDto, ...errorResponses },
      },
    },
    async (request) =>
      markConversationRead({
        ctx,
        viewer: await ctx.requireViewer(request),
        conversationId: request.params.id,
        messageId: request.body.message_id,
      }),
  );

  app.patch(
    "/api/messages/:id",
    {
      schema: {
        tags,
        summary: "Edit one's own message (within 24 hours of sending)",
        params: messageParams,
        body: editMessageSchema,
        response: { 200: messageDto, ...errorResponses },
      },
    },
    async (request) =>
      editMessage({
        ctx,
        viewer: await ctx.requireViewer(request),
        messageId: request.params.id,
        body: request.body.body,
      }),
  );

  app.delete(
    "/api/messages/:id",
    {
      schema: {
        tags,
        summary: "Delete one's own message (it stays in place as 'Message deleted', without text or image)",
        params: messageParams,
        response: { 200: messageDto, ...errorResponses },
      },
    },
    async (request) => deleteMessage({ ctx, viewer: await ctx.requireViewer(request), messageId: request.params.id }),
  );

  app.get(
    "/api/messages/unread-count",
    {
      schema: {
        tags,
        summary: "Conversations with unread messages (the header's badge)",
        response: { 200: unreadMessagesDto, ...errorResponses },
      },
    },
    async (request) => ({ unread: await unreadConversations(ctx.db, (await ctx.requireViewer(request)).id) }),
  );

  app.get(
    "/api/me/messaging",
    {
      schema: {
        tags,
        summary: "Who may start a conversation with the signed-in person",
        response: { 200: messagingSettingsDto, ...errorResponses },
      },
    },
    async (request) => findMessagingSettings({ ctx, viewer: await ctx.requireViewer(request) }),
  );

  app.put(
    "/api/me/messaging",
    {
      schema: {
        tags,
        summary: "Choose who may start a conversation: members of my communities, or nobody",
        description: "Stored as the profile's allow_messages. With 'nobody', no message can be sent to the person.",
        body: messagingSettingsSchema,
        response: { 200: messagingSettingsDto, ...errorResponses },
      },
    },
    async (request) =>
      updateMessagingSettings({ ctx, viewer: await ctx.requireViewer(request), policy: request.body.policy }),
  );

  app.get(
    "/api/me/blocks",
    {
      schema: {
        tags,
        summary: "The people the signed-in person blocked, newest first",
        response: { 200: blocksDto, ...errorResponses },
      },
    },
    async (request) => findBlocks({ ctx, viewer: await ctx.requireViewer(request) }),
  );

  app.put(
    "/api/users/:userId/block",
    {
      schema: {
        tags,
        summary: "Block a person: no messages either way; their conversation leaves the inbox until unblocked",
        params: userParams,
        response: { 200: blockStateDto, ...errorResponses },
      },
    },
    async (request) =>
      setBlocked({ ctx, viewer: await ctx.requireViewer(request), userId: request.params.userId, blocked: true }),
  );

  app.delete(
    "/api/users/:userId/block",
    {
      schema: {
        tags,
        summary: "Unblock a person: their conversation and messages come back",
        params: userParams,
        response: { 200: blockStateDto, ...errorResponses },
      },
    },
    async (request) =>
      setBlocked({ ctx, viewer: await ctx.requireViewer(request), userId: request.params.userId, blocked: false }),
  );
};
