import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { emailSchema } from "#shared/validation.schemas";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { EmailField, PasswordField } from "#web/components/ui/field";
import { ApiError } from "#web/lib/api";
import { useSendVerificationEmail } from "../api/send-verification-email";
import { useSignIn } from "../api/sign-in";
import { GoogleSignIn } from "./google-button";

const loginSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Please enter your password"),
});

type LoginValues = z.input<typeof loginSchema>;

export function LoginForm({
  defaultEmail,
  onSignedIn,
  onTwoFactor,
  onForgot,
  onSignUp,
}: {
  defaultEmail?: string;
  onSignedIn: () => Promise<void>;
  onTwoFactor: () => void;
  onForgot: (email: string) => void;
  onSignUp: () => void;
}) {
  const signIn = useSignIn();
  const resend = useSendVerificationEmail();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues, unknown, z.output<typeof loginSchema>>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: defaultEmail ?? "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    resend.reset();
    try {
      const result = await signIn.mutateAsync(values);
      if (result?.twoFactorRedirect) onTwoFactor();
      else await onSignedIn();
    } catch {
      // shown from signIn.error
    }
  });

  const error = signIn.error;
  const unverified = error instanceof ApiError && error.code === "EMAIL_NOT_VERIFIED";

  return (
    <div>
      <GoogleSignIn />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {error && (
          <FormMessage tone="error">
            <p>{error.message}</p>
            {unverified &&
              (resend.isSuccess ? (
                <p className="mt-1 font-medium">We sent you a new confirmation link.</p>
              ) : (
                <button
                  type="button"
                  className="mt-1 cursor-pointer font-semibold underline underline-offset-2"
                  onClick={() => resend.mutate({ email: getValues("email").trim() })}
                  disabled={resend.isPending}
                >
                  Resend confirmation email
                </button>
              ))}
          </FormMessage>
        )}
        <EmailField label="Email" error={errors.email?.message} {...register("email")} />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          labelAside={
            <button
              type="button"
              className="cursor-pointer text-sm font-medium text-brand-800 hover:underline"
              onClick={() => onForgot(getValues("email"))}
            >
              Forgot password?
            </button>
          }
          {...register("password")}
        />
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          Log in
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-600">
        Don&apos;t have an account?{" "}
        <button
          type="button"
          className="cursor-pointer font-semibold text-brand-800 hover:underline"
          onClick={onSignUp}
        >
          Sign up
        </button>
      </p>
    </div>
  );
}
