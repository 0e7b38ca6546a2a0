import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { emailSchema } from "#shared/validation.schemas";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { EmailField } from "#web/components/ui/field";
import { useRequestPasswordReset } from "../api/request-password-reset";

const forgotSchema = z.object({ email: emailSchema });

export function ForgotForm({
  defaultEmail,
  onSent,
  onBack,
}: {
  defaultEmail?: string;
  onSent: (email: string) => void;
  onBack: () => void;
}) {
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof forgotSchema>, unknown, z.output<typeof forgotSchema>>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { email: defaultEmail ?? "" },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await request.mutateAsync({ email });
      onSent(email);
    } catch {
      // shown from request.error
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {request.error && <FormMessage tone="error">{request.error.message}</FormMessage>}
      <EmailField label="Email" error={errors.email?.message} {...register("email")} />
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
        Send reset link
      </Button>
      <p className="text-center text-sm text-stone-600">
        Remembered it?{" "}
        <button type="button" className="cursor-pointer font-semibold text-brand-800 hover:underline" onClick={onBack}>
          Back to log in
        </button>
      </p>
    </form>
  );
}
