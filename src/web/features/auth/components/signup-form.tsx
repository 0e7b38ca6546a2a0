import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { LIMITS } from "#shared/limits";
import { safeRedirectPath } from "#shared/safe-redirect";
import { signUpSchema } from "#shared/validation.schemas";
import { UsernameField } from "#web/components/username-field";
import { Button } from "#web/components/ui/button";
import { FormMessage } from "#web/components/ui/form-message";
import { EmailField, PasswordField, TextField } from "#web/components/ui/field";
import { useUsernameCheck } from "#web/lib/username-check";
import { useSignUp } from "../api/sign-up";
import { GoogleSignIn } from "./google-button";
import { PasswordStrengthMeter } from "./password-strength-meter";

type SignUpValues = z.input<typeof signUpSchema>;

export function SignUpForm({
  defaultEmail,
  redirect,
  onSuccess,
  onLogIn,
}: {
  defaultEmail?: string;
  redirect?: string;
  onSuccess: (email: string) => void;
  onLogIn: () => void;
}) {
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    control,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues, unknown, z.output<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { name: "", username: "", email: defaultEmail ?? "", password: "" },
  });
  const username = useWatch({ control, name: "username" });
  const password = useWatch({ control, name: "password" });
  const usernameStatus = useUsernameCheck(username);
  const taken = usernameStatus.state === "taken";

  const onSubmit = handleSubmit(async (values) => {
    // 'Username is already taken' blocks sign-up (SPEC §8).
    if (taken) {
      setFocus("username");
      return;
    }
    try {
      await signUp.mutateAsync({ ...values, callbackURL: safeRedirectPath(redirect) });
      onSuccess(values.email);
    } catch {
      // shown from signUp.error
    }
  });

  return (
    <div>
      <GoogleSignIn />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {signUp.error && <FormMessage tone="error">{signUp.error.message}</FormMessage>}
        <TextField
          label="Full name"
          autoComplete="name"
          maxLength={LIMITS.fullNameMax}
          error={errors.name?.message}
          {...register("name")}
        />
        <UsernameField
          registration={register("username")}
          status={usernameStatus}
          formError={errors.username?.message}
          idleHint="Letters, numbers and underscores."
        />
        <EmailField label="Email" error={errors.email?.message} {...register("email")} />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          error={errors.password?.message}
          hint={password ? <PasswordStrengthMeter password={password} /> : `At least ${LIMITS.passwordMin} characters.`}
          {...register("password")}
        />
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting} disabled={taken}>
          Create account
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-600">
        Already have an account?{" "}
        <button type="button" className="cursor-pointer font-semibold text-brand-800 hover:underline" onClick={onLogIn}>
          Log in
        </button>
      </p>
    </div>
  );
}
