package ide

import (
	"context"
)

// RepositoriesResult is the answer of get_git_repositories.
type RepositoriesResult struct {
	ProjectPath  string       `json:"projectPath"`
	Repositories []Repository `json:"repositories"`
}

func (x *IDE) gitRepositories(ctx context.Context, in ProjectInput) (RepositoriesResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return RepositoriesResult{}, err
	}
	reps, err := x.git.Repositories(ctx, dir)
	if err != nil {
		return RepositoriesResult{}, err
	}
	return RepositoriesResult{ProjectPath: dir, Repositories: reps}, nil
}

// RepositoryInput names a repository of the project.
type RepositoryInput struct {
	ProjectPath    string `json:"projectPath,omitempty"`
	RepositoryRoot string `json:"repositoryRoot,omitempty"`
}

func (x *IDE) gitRemotes(ctx context.Context, in RepositoryInput) (RemotesResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return RemotesResult{}, err
	}
	return x.git.Remotes(ctx, dir, in.RepositoryRoot)
}

// FetchInput is the input of git_fetch.
type FetchInput struct {
	RepositoryInput
	Remote string `json:"remote,omitempty" jsonschema:"default: upstream's, origin, the only one"`
	Prune  bool   `json:"prune,omitempty"`
}

func (x *IDE) gitFetch(ctx context.Context, in FetchInput) (OpResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return OpResult{}, err
	}
	return x.git.Fetch(ctx, dir, in.RepositoryRoot, in.Remote, in.Prune)
}

// PullInput is the input of git_pull.
type PullInput struct {
	RepositoryInput
	Strategy string `json:"strategy,omitempty" jsonschema:"default ff_only"`
}

func (x *IDE) gitPull(ctx context.Context, in PullInput) (OpResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return OpResult{}, err
	}
	return x.git.Pull(ctx, dir, in.RepositoryRoot, in.Strategy)
}

// PushInput is the input of git_push.
type PushInput struct {
	RepositoryInput
	Remote      string `json:"remote,omitempty" jsonschema:"default: as for git_fetch"`
	SetUpstream bool   `json:"setUpstream,omitempty"`
}

func (x *IDE) gitPush(ctx context.Context, in PushInput) (OpResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return OpResult{}, err
	}
	return x.git.Push(ctx, dir, in.RepositoryRoot, in.Remote, in.SetUpstream)
}
