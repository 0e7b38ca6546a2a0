import { ExternalLink, Lock, LogIn, ShoppingCart, VideoOff } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { COURSE_LIMITS, COURSE_MESSAGES, lessonVideo, type LockReason } from "#shared/courses";
import { Button, buttonClasses } from "#web/components/ui/button";
import type { Lesson } from "../api/courses";

const names = { youtube: "YouTube video", vimeo: "Vimeo video" } as const;

/**
 * The selected lesson's video: YouTube and Vimeo as embeds, files in a <video> that reports the
 * lesson watched once 90% has played or it ends (SPEC §4). Mounted per lesson (keyed by its id).
 */
export function LessonPlayer({ lesson, onWatched }: { lesson: Lesson; onWatched?: () => void }) {
  const reported = useRef(false);
  const report = () => {
    if (reported.current || lesson.completed) return;
    reported.current = true;
    onWatched?.();
  };
  const video = lesson.video_url ? lessonVideo(lesson.video_url) : null;

  if (!video) {
    return (
      <div className="flex aspect-video flex-col items-center justify-center gap-3 rounded-2xl bg-stone-900 px-6 text-center text-stone-200">
        <VideoOff className="size-8 text-stone-400" aria-hidden="true" />
        <p className="font-semibold">This video can&apos;t be played here.</p>
        {lesson.video_url && (
          <a
            href={lesson.video_url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1.5 text-sm font-semibold text-white underline underline-offset-4"
          >
            Open the video
            <ExternalLink className="size-3.5" aria-hidden="true" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        )}
      </div>
    );
  }

  return (
    <div className="aspect-video overflow-hidden rounded-2xl bg-stone-950 shadow-sm ring-1 ring-stone-900/10">
      {video.kind === "file" ? (
        <video
          src={video.src}
          controls
          preload="metadata"
          playsInline
          className="size-full"
          aria-label={`Video: ${lesson.title}`}
          onTimeUpdate={(e) => {
            const { currentTime, duration } = e.currentTarget;
            if (
              duration > 0 &&
              Number.isFinite(duration) &&
              currentTime / duration >= COURSE_LIMITS.autoCompleteRatio
            ) {
              report();
            }
          }}
          onEnded={report}
        >
          <a href={video.src}>Download the video</a>
        </video>
      ) : (
        <iframe
          src={video.src}
          title={`${names[video.kind]}: ${lesson.title}`}
          allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="size-full border-0"
        />
      )}
    </div>
  );
}

/** In place of the player for a locked lesson: join the community, or buy the course. */
export function LessonLock({
  reason,
  communityName,
  communityPath,
  lockText,
  onBuy,
  signedOut,
  onSignIn,
}: {
  reason: LockReason;
  communityName: string;
  communityPath: string;
  /** "Buy this course for €49", "Available on VIP", "Unlocks at level 3 (Insider)". */
  lockText: string;
  onBuy: () => void;
  signedOut: boolean;
  onSignIn: () => void;
}) {
  return (
    <div className="relative flex min-h-64 flex-col sm:aspect-video sm:min-h-0 items-center justify-center overflow-hidden rounded-2xl bg-gradient-to-br from-stone-900 via-stone-800 to-brand-900 px-6 py-8 text-center text-white shadow-sm">
      <div className="absolute -top-16 -right-16 size-56 rounded-full bg-white/5" aria-hidden="true" />
      <div className="absolute -bottom-20 -left-10 size-64 rounded-full bg-brand-500/10" aria-hidden="true" />
      <span className="relative flex size-14 items-center justify-center rounded-full bg-white/10 ring-1 ring-white/20">
        <Lock className="size-6" aria-hidden="true" />
      </span>
      <h2 className="relative mt-4 text-lg font-bold sm:text-xl">This lesson is locked</h2>
      <p className="relative mt-1.5 max-w-md text-sm text-stone-200">
        {reason === "purchase"
          ? COURSE_MESSAGES.locked
          : reason === "tier"
            ? `${lockText}. ${COURSE_MESSAGES.tierLocked}`
            : reason === "level"
              ? `${lockText}. ${COURSE_MESSAGES.levelLocked}`
              : `Join ${communityName} to take this course.`}
      </p>
      <div className="relative mt-5 flex flex-wrap justify-center gap-3">
        {reason === "purchase" ? (
          <Button size="lg" onClick={onBuy}>
            <ShoppingCart className="size-4" aria-hidden="true" />
            {lockText}
          </Button>
        ) : reason === "tier" ? (
          <Link to={communityPath} className={buttonClasses({ size: "lg" })}>
            See the plans
          </Link>
        ) : reason === "level" ? (
          <Link to={`${communityPath}?tab=leaderboards`} className={buttonClasses({ size: "lg" })}>
            See the leaderboard
          </Link>
        ) : (
          <>
            <Link to={communityPath} className={buttonClasses({ size: "lg" })}>
              Join the community
            </Link>
            {signedOut && (
              <Button
                variant="secondary"
                size="lg"
                className="bg-white/10 text-white ring-white/30 hover:bg-white/20"
                onClick={onSignIn}
              >
                <LogIn className="size-4" aria-hidden="true" />
                Log in
              </Button>
            )}
          </>
        )}
      </div>
    </div>
  );
}
