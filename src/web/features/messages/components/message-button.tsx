import { MessageCircle } from "./icons";
import { useNavigate } from "react-router";
import { messagesHref } from "#shared/messaging";
import { Button, type ButtonProps } from "#web/components/ui/button";
import { errorMessage } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { useOpenConversation } from "../api/open-conversation";

/**
 * 'Message' on a person's profile or a members list: finds or starts the conversation with them and
 * opens it. The caller shows it only to someone signed in, never for themselves.
 */
export function MessageButton({
  userId,
  name,
  iconOnly = false,
  variant = "secondary",
  size,
  className,
}: {
  userId: string;
  name: string;
  iconOnly?: boolean;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  className?: string;
}) {
  const navigate = useNavigate();
  const open = useOpenConversation();
  const onClick = () =>
    open.mutate(userId, {
      onSuccess: (conversation) => navigate(messagesHref(conversation.id)),
      onError: (error) =>
        toast.error(errorMessage(error, "Couldn't open the conversation.", ["FORBIDDEN", "VALIDATION", "NOT_FOUND"])),
    });
  return (
    <Button
      variant={iconOnly ? "ghost" : variant}
      size={iconOnly ? "icon" : size}
      className={className}
      loading={open.isPending}
      onClick={onClick}
      aria-label={iconOnly ? `Message ${name}` : undefined}
      title={iconOnly ? `Message ${name}` : undefined}
    >
      {!(iconOnly && open.isPending) && <MessageCircle className="size-4" aria-hidden="true" />}
      {!iconOnly && "Message"}
    </Button>
  );
}
