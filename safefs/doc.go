// Package safefs is how dbg makes the folders and files it keeps outside
// a project, so that another user of the machine gets no foothold in
// them. It imports nothing of dbg's.
//
// # Folders
//
// [Dir] makes a folder private to this user and checks it: a directory,
// not a symbolic link, owned by the effective uid, with no access for
// group or others, below parents that only root or this user can change
// (a sticky folder such as /tmp counts as safe). A folder another user
// made first, or a mode nobody can tighten, is an [ErrUnsafe] error
// naming the folder and why. [StateDir] and [UserCacheDir] name dbg's
// state and cache folders; without HOME or XDG_* they are in
// $TMPDIR/dbg-<uid>, made and checked like the others, never a shared
// fixed path.
//
//	dir, err := safefs.UserCacheDir() // ~/.cache, and ~/.cache/dbg made private
//	if err == nil {
//		f, err := safefs.CreateTemp(filepath.Join(dir, "dbg", "build"), "prog.*")
//		...
//	}
//
// # Files
//
// Files are created [os.O_EXCL]|O_NOFOLLOW: [CreateTemp] with an
// unpredictable name, [OpenNew] at a name the protocol fixes, and
// [WriteFile] atomically (a new file renamed over the old one). A file
// dbg trusts is read only when its owner and mode say that nobody else
// wrote it: [ReadPrivate] for this user's own files (tokens, daemon
// records), [ReadOwned] for a file another process must have written
// (a port file of the target's uid).
//
// # Handing folders to a target
//
// When dbg runs as root and acts on a process of another user, that
// process must read what dbg gives it and write its answer: [HandOff]
// gives a folder dbg just made, with an unpredictable name, to that
// user through its descriptor, never through a path. [Trusted] says
// whether a program dbg would run can be changed by another user.
package safefs
