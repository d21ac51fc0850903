/**
 * `hark completion bash|zsh|fish`: shell completion scripts generated from the command tree.
 *
 * The scripts are static: every command, alias, flag and enum value is written into them when
 * they are generated, so completing costs no hark process. A command added to the tree is
 * completed without changing this file.
 *
 * @module
 */

import { Argument, Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { Context } from "../context.ts";
import { withExamples } from "./help.ts";

/** The shells hark writes completion scripts for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of {@link SHELLS}. */
export type Shell = typeof SHELLS[number];

/** A flag as completion sees it. */
export interface CompletionFlag {
  /** The spellings, long first: `["--format"]`, `["--yes", "-y"]`. */
  names: string[];
  /** One line of help. */
  description: string;
  /** Whether a value follows the flag (`--profile <name>`, `--level [n]`). */
  takesValue: boolean;
  /** The allowed values, empty when any value goes. */
  choices: string[];
  /** Whether the value is a file name (its value name mentions a file or a dir). */
  files: boolean;
}

/** A positional argument as completion sees it. */
export interface CompletionArgument {
  /** The allowed values, empty when any value goes. */
  choices: string[];
  /** Whether the value is a file name. */
  files: boolean;
  /** Whether it takes every remaining word. */
  variadic: boolean;
}

/** A command as completion sees it. */
export interface CompletionNode {
  /** The canonical names from the root, such as `["hark", "calendar", "+agenda"]`. */
  path: string[];
  /** Other names of the command. */
  aliases: string[];
  /** One line of help. */
  description: string;
  /** The visible sub-commands. */
  commands: CompletionNode[];
  /** Its own visible flags, then those of its ancestors (accepted after it too). */
  flags: CompletionFlag[];
  /** Its positional arguments, in order. */
  args: CompletionArgument[];
}

const FILE_VALUE = /file|dir/i;

/**
 * The completion model of a commander tree: visible commands (including commander's implicit
 * `help`, whose argument completes the sibling commands), visible flags with inherited ones,
 * aliases and enum values.
 *
 * @param root the root command
 */
export function completionTree(root: CommandUnknownOpts): CompletionNode {
  return walk(root, [], []);
}

function walk(
  command: CommandUnknownOpts,
  parentPath: string[],
  inherited: CompletionFlag[],
): CompletionNode {
  const help = command.createHelp();
  const path = [...parentPath, command.name()];
  const own = help.visibleOptions(command).map((option): CompletionFlag => {
    const valueName = /[<[]([^>\]]*)[>\]]/.exec(option.flags)?.[1] ?? "";
    const takesValue = option.required || option.optional;
    return {
      names: [option.long, option.short].filter((n): n is string => n !== undefined),
      description: oneLine(option.description),
      takesValue,
      choices: takesValue ? [...(option.argChoices ?? [])] : [],
      files: takesValue && !option.argChoices && FILE_VALUE.test(valueName),
    };
  });
  const flags = mergeFlags(own, inherited);
  const toInherit = mergeFlags(own.filter((f) => !f.names.includes("--help")), inherited);
  const children = help.visibleCommands(command);
  const siblings = children.map((c) => c.name()).filter((n) => n !== "help");
  const commands = children.map((child) => {
    const node = walk(child, path, toInherit);
    // commander's implicit `help [command]` is not in `command.commands`.
    if (!command.commands.includes(child) && node.args.length > 0) node.args[0].choices = siblings;
    return node;
  });
  return {
    path,
    aliases: command.aliases(),
    description: oneLine(command.description()),
    commands,
    flags,
    args: command.registeredArguments.map((argument) => ({
      choices: [...(argument.argChoices ?? [])],
      files: !argument.argChoices && FILE_VALUE.test(argument.name()),
      variadic: argument.variadic,
    })),
  };
}

/** Own flags first; an inherited flag whose spelling is taken is dropped. */
function mergeFlags(own: CompletionFlag[], inherited: CompletionFlag[]): CompletionFlag[] {
  const taken = new Set(own.flatMap((f) => f.names));
  return [...own, ...inherited.filter((f) => !f.names.some((n) => taken.has(n)))];
}

function oneLine(text: string): string {
  return (text.split("\n")[0] ?? "").replaceAll("\t", " ").trim();
}

function allNodes(node: CompletionNode): CompletionNode[] {
  return [node, ...node.commands.flatMap(allNodes)];
}

/** The lookup key of a positional argument in the generated data, `#0` for the first. */
function argKey(index: number): string {
  return `#${index}`;
}

/** Every (key, values) pair a command completes values for: flags with values, arguments. */
function valueKeys(node: CompletionNode): { keys: string[]; choices: string[]; files: boolean }[] {
  const entries: { keys: string[]; choices: string[]; files: boolean }[] = [];
  for (const flag of node.flags) {
    if (flag.takesValue && (flag.choices.length > 0 || flag.files)) {
      entries.push({ keys: flag.names, choices: flag.choices, files: flag.files });
    }
  }
  node.args.forEach((arg, index) => {
    if (arg.choices.length === 0 && !arg.files) return;
    entries.push({ keys: [argKey(index)], choices: arg.choices, files: arg.files });
  });
  return entries;
}

/**
 * Quotes a word for bash or zsh: single quotes, with `'` written as `'\''`.
 *
 * @param word any text
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Quotes a word for fish: single quotes, with `\` and `'` escaped by a backslash.
 *
 * @param word any text
 */
export function fishQuote(word: string): string {
  return `'${word.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** An identifier-safe form of the program name, for function names. */
function ident(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * The completion script of a shell for a command tree.
 *
 * @param shell the shell
 * @param root the root command; its name is the program being completed
 */
export function completionScript(shell: Shell, root: CommandUnknownOpts): string {
  const tree = completionTree(root);
  switch (shell) {
    case "bash":
      return bashScript(tree);
    case "zsh":
      return zshScript(tree);
    case "fish":
      return fishScript(tree);
  }
}

// bash and zsh ---------------------------------------------------------------------------------

/**
 * The functions bash and zsh share: the data of the tree as `case` statements and the word
 * walker. They only use syntax both shells read the same way (no array indexing).
 */
function posixCore(tree: CompletionNode, zsh: boolean): string {
  const p = `__${ident(tree.path[0])}`;
  const local = zsh ? "  emulate -L zsh\n" : "";
  const nodes = allNodes(tree);
  const key = (node: CompletionNode) => shellQuote(node.path.join(" "));
  const words = (list: string[]) => list.map(shellQuote).join(" ");
  const branch = (node: CompletionNode, body: string[]) =>
    body.length === 0
      ? ""
      : `    ${key(node)})\n${body.map((l) => `      ${l}\n`).join("")}      ;;\n`;
  const fn = (name: string, comment: string, body: string) =>
    `# ${comment}\n${p}_${name}() {\n${local}${body}}\n\n`;
  const cases = (render: (node: CompletionNode) => string[], after = "") =>
    `  case $1 in\n${nodes.map((n) => branch(n, render(n))).join("")}  esac\n${after}`;

  return [
    fn(
      "add",
      "Appends the words after the first, prefixed with it, to the candidates.",
      `  local prefix=$1 word\n  shift\n  for word in "$@"; do\n` +
        `    ${p}_vals+=("$prefix$word")\n    ${p}_descs+=('')\n  done\n`,
    ),
    fn(
      "subcommands",
      "Adds the sub-commands of command $1 to the candidates.",
      cases((node) =>
        node.commands.length === 0 ? [] : [
          `${p}_vals+=(${words(node.commands.map((c) => c.path.at(-1)!))})`,
          `${p}_descs+=(${words(node.commands.map((c) => c.description))})`,
        ]
      ),
    ),
    fn(
      "flags",
      "Adds the flags of command $1 to the candidates.",
      cases((node) => [
        `${p}_vals+=(${words(node.flags.flatMap((f) => f.names))})`,
        `${p}_descs+=(${words(node.flags.flatMap((f) => f.names.map(() => f.description)))})`,
      ]),
    ),
    fn(
      "resolve",
      "Sets " + p + "_next to the sub-command of command $1 named or aliased $2; fails if none.",
      `  ${p}_next=''\n` +
        cases((node) =>
          node.commands.length === 0 ? [] : [
            "case $2 in",
            ...node.commands.map((c) =>
              `  ${[c.path.at(-1)!, ...c.aliases].map(shellQuote).join("|")}) ${p}_next=${
                shellQuote(c.path.at(-1)!)
              } ;;`
            ),
            "esac",
          ]
        ) + `  [[ -n $${p}_next ]]\n`,
    ),
    fn(
      "takes_value",
      "Succeeds when flag $2 of command $1 takes a value.",
      cases((node) => {
        const names = node.flags.filter((f) => f.takesValue).flatMap((f) => f.names);
        return names.length === 0
          ? []
          : [`case $2 in ${names.map(shellQuote).join("|")}) return 0 ;; esac`];
      }, "  return 1\n"),
    ),
    fn(
      "values",
      "Adds the values of flag or argument $2 (#0 is the first argument) of command $1, each\n" +
        "# prefixed with $3, to the candidates; sets " + p + "_files=1 when file names fit.",
      cases((node) => {
        const entries = valueKeys(node);
        const variadic = node.args.findIndex((a) => a.variadic);
        if (variadic >= 0) {
          const last = entries.find((e) => e.keys[0] === argKey(variadic));
          if (last) entries.push({ ...last, keys: ["'#'*"] });
        }
        return entries.length === 0 ? [] : [
          "case $2 in",
          ...entries.map((e) => {
            const pattern = e.keys.map((k) => (k === "'#'*" ? k : shellQuote(k))).join("|");
            const actions = [
              ...(e.choices.length > 0 ? [`${p}_add "$3" ${words(e.choices)}`] : []),
              ...(e.files ? [`${p}_files=1`] : []),
            ];
            return `  ${pattern}) ${actions.join("; ")} ;;`;
          }),
          "esac",
        ];
      }),
    ),
    fn(
      "candidates",
      `Completes the words after ${
        tree.path[0]
      }; the last one is under the cursor. Sets ${p}_vals\n` +
        `# and ${p}_descs (side by side), ${p}_files (1 when file names fit) and ${p}_cur (the text\n` +
        "# the candidates must start with).",
      `  local cmd=${shellQuote(tree.path[0])} word expect='' nargs=0 dashdash=0
  ${p}_vals=() ${p}_descs=() ${p}_files=0
  while (( $# > 1 )); do
    word=$1
    shift
    if [[ -n $expect ]]; then
      # bash splits --flag=value into --flag, = and value.
      [[ $word == '=' ]] || expect=''
    elif (( dashdash )) || [[ $word != -?* ]]; then
      if (( ! dashdash && nargs == 0 )) && ${p}_resolve "$cmd" "$word"; then
        cmd="$cmd $${p}_next"
      else
        nargs=$((nargs + 1))
      fi
    elif [[ $word == -- ]]; then
      dashdash=1
    elif [[ $word != *=* ]] && ${p}_takes_value "$cmd" "$word"; then
      expect=$word
    fi
  done
  ${p}_cur=$1
  if [[ -n $expect ]]; then
    [[ $${p}_cur == '=' ]] && ${p}_cur=''
    ${p}_values "$cmd" "$expect" ''
  elif (( ! dashdash )) && [[ $${p}_cur == -* ]]; then
    if [[ $${p}_cur == -?*=* ]] && ${p}_takes_value "$cmd" "\${${p}_cur%%=*}"; then
      ${p}_values "$cmd" "\${${p}_cur%%=*}" "\${${p}_cur%%=*}="
    else
      ${p}_flags "$cmd"
    fi
  else
    (( dashdash || nargs > 0 )) || ${p}_subcommands "$cmd"
    ${p}_values "$cmd" "#$nargs" ''
  fi
  return 0
`,
    ),
  ].join("");
}

function bashScript(tree: CompletionNode): string {
  const name = tree.path[0];
  const p = `__${ident(name)}`;
  return `# bash completion for ${name}, generated by \`${name} completion bash\`.
# Load it with: source <(${name} completion bash)

${posixCore(tree, false)}# The completion function bash calls for ${name}.
_${ident(name)}() {
  local ${p}_cur ${p}_files ${p}_next word
  local -a ${p}_vals ${p}_descs
  ${p}_candidates "\${COMP_WORDS[@]:1:COMP_CWORD}"
  COMPREPLY=()
  for word in "\${${p}_vals[@]}"; do
    [[ $word == "$${p}_cur"* ]] && COMPREPLY+=("$word")
  done
  if (( ${p}_files )); then
    compopt -o filenames 2>/dev/null
    while IFS= read -r word; do COMPREPLY+=("$word"); done < <(compgen -f -- "$${p}_cur")
  fi
  return 0
}

complete -F _${ident(name)} ${shellQuote(name)}
`;
}

function zshScript(tree: CompletionNode): string {
  const name = tree.path[0];
  const p = `__${ident(name)}`;
  return `#compdef ${name}
# zsh completion for ${name}, generated by \`${name} completion zsh\`.
# Install it as _${name} in a folder of $fpath, or load it after compinit with:
#   source <(${name} completion zsh)

${posixCore(tree, true)}# The completion function zsh calls for ${name}.
_${ident(name)}() {
  emulate -L zsh
  local ${p}_cur ${p}_files ${p}_next
  local -a ${p}_vals ${p}_descs ${p}_shown
  local i width=0 ret=1
  ${p}_candidates "\${(@)words[2,CURRENT]}"
  for (( i = 1; i <= \${#${p}_vals}; i++ )); do
    (( \${#${p}_vals[i]} > width )) && width=\${#${p}_vals[i]}
  done
  for (( i = 1; i <= \${#${p}_vals}; i++ )); do
    if [[ -n \${${p}_descs[i]} ]]; then
      ${p}_shown+=("\${(r:width:)${p}_vals[i]}  -- \${${p}_descs[i]}")
    else
      ${p}_shown+=("\${${p}_vals[i]}")
    fi
  done
  if (( \${#${p}_vals} )); then
    compadd -l -d ${p}_shown -a ${p}_vals && ret=0
  fi
  if (( ${p}_files )); then
    _files && ret=0
  fi
  return ret
}

if [[ \${funcstack[1]} == _${ident(name)} ]]; then
  # Autoloaded from $fpath: this file is the body of _${ident(name)}.
  _${ident(name)} "$@"
elif (( $+functions[compdef] )); then
  compdef _${ident(name)} ${shellQuote(name)}
fi
`;
}

// fish -----------------------------------------------------------------------------------------

function fishScript(tree: CompletionNode): string {
  const name = tree.path[0];
  const p = `__${ident(name)}`;
  const nodes = allNodes(tree);
  const q = fishQuote;
  const fn = (fname: string, comment: string, render: (node: CompletionNode) => string[]) => {
    const branches = nodes.map((node) => ({ node, body: render(node) })).filter((b) =>
      b.body.length > 0
    );
    const chain = branches.map(({ node, body }, i) =>
      `    ${i === 0 ? "if" : "else if"} test "$argv[1]" = ${q(node.path.join(" "))}\n` +
      body.map((l) => `        ${l}\n`).join("")
    ).join("");
    return `# ${comment}\nfunction ${p}_${fname}\n${chain}${
      branches.length > 0 ? "    end\n" : ""
    }` +
      (fname === "resolve" || fname === "takes_value" ? "    return 1\n" : "") + "end\n\n";
  };
  const described = (pairs: [string, string][]) =>
    pairs.length === 0
      ? []
      : [`printf '%s\\t%s\\n' ${pairs.map(([v, d]) => `${q(v)} ${q(d)}`).join(" ")}`];

  return `# fish completion for ${name}, generated by \`${name} completion fish\`.
# Install it as ~/.config/fish/completions/${name}.fish, or load it with:
#   ${name} completion fish | source

${
    fn(
      "subcommands",
      "Prints the sub-commands of command $argv[1] with their descriptions.",
      (node) => described(node.commands.map((c) => [c.path.at(-1)!, c.description])),
    )
  }${
    fn(
      "flags",
      "Prints the flags of command $argv[1] with their descriptions.",
      (node) =>
        described(
          node.flags.flatMap((f) => f.names.map((n): [string, string] => [n, f.description])),
        ),
    )
  }${
    fn(
      "resolve",
      "Prints the sub-command of command $argv[1] named or aliased $argv[2]; fails if none.",
      (node) =>
        node.commands.map((c) =>
          `contains -- $argv[2] ${[c.path.at(-1)!, ...c.aliases].map(q).join(" ")}; and echo ${
            q(c.path.at(-1)!)
          }; and return 0`
        ),
    )
  }${
    fn(
      "takes_value",
      "Succeeds when flag $argv[2] of command $argv[1] takes a value.",
      (node) => {
        const names = node.flags.filter((f) => f.takesValue).flatMap((f) => f.names);
        return names.length === 0
          ? []
          : [`contains -- $argv[2] ${names.map(q).join(" ")}; and return 0`];
      },
    )
  }${
    fn(
      "values",
      "Prints the values of flag or argument $argv[2] (#0 is the first argument) of command\n" +
        "# $argv[1], each prefixed with $argv[4]; file names start with $argv[3].",
      (node) => {
        const entries = valueKeys(node);
        const variadic = node.args.findIndex((a) => a.variadic);
        return entries.flatMap((e) => {
          const keys = e.keys.map(q).join(" ");
          const test = e.keys[0] === argKey(variadic)
            ? `begin; contains -- $argv[2] ${keys}; or begin; string match -qr '^#[0-9]+$' -- $argv[2]; and test (string sub -s 2 -- $argv[2]) -ge ${variadic}; end; end`
            : `contains -- $argv[2] ${keys}`;
          return [
            `if ${test}`,
            ...(e.choices.length > 0
              ? [
                `    printf '%s\\n' $argv[4]${q(e.choices[0])}` +
                e.choices.slice(1).map((c) => ` $argv[4]${q(c)}`).join(""),
              ]
              : []),
            ...(e.files
              ? [`    for f in (__fish_complete_path $argv[3]); echo $argv[4]$f; end`]
              : []),
            "end",
          ];
        });
      },
    )
  }# Prints the candidates for the words after ${name}; the last one is under the cursor.
function ${p}_candidates
    set -l cur $argv[-1]
    set -l words $argv
    set -e words[-1]
    set -l cmd ${q(name)}
    set -l expect
    set -l nargs 0
    set -l dashdash 0
    set -l next
    for word in $words
        if test -n "$expect"
            set expect
        else if test $dashdash = 1; or not string match -q -- '-?*' $word
            if test $dashdash = 0 -a $nargs = 0; and set next (${p}_resolve $cmd $word)
                set cmd "$cmd $next"
            else
                set nargs (math $nargs + 1)
            end
        else if test "$word" = --
            set dashdash 1
        else if not string match -q -- '*=*' $word; and ${p}_takes_value $cmd $word
            set expect $word
        end
    end
    if test -n "$expect"
        ${p}_values $cmd $expect "$cur" ''
    else if test $dashdash = 0; and string match -q -- '-*' $cur
        set -l parts (string split -m 1 = -- $cur)
        if test (count $parts) = 2; and ${p}_takes_value $cmd $parts[1]
            ${p}_values $cmd $parts[1] "$parts[2]" "$parts[1]="
        else
            ${p}_flags $cmd
        end
    else
        if test $dashdash = 0 -a $nargs = 0
            ${p}_subcommands $cmd
        end
        ${p}_values $cmd "#$nargs" "$cur" ''
    end
end

# The completion fish calls for ${name}.
function ${p}_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cur (commandline -ct)
    ${p}_candidates $tokens "$cur"
end

complete -c ${q(name)} -e
complete -c ${q(name)} -f -a '(${p}_complete)'
`;
}

// the command ----------------------------------------------------------------------------------

/** Options of {@link runCompletion}. */
export interface CompletionOptions {
  /** The shell to write the script for. */
  shell: Shell;
  /** The command tree to complete. */
  root: CommandUnknownOpts;
}

/**
 * Prints the completion script of a shell to stdout.
 *
 * @param ctx the context
 * @param options the shell and the tree
 */
export function runCompletion(ctx: Context, options: CompletionOptions): void {
  ctx.stdout.write(completionScript(options.shell, options.root));
}

/**
 * The `completion` command.
 *
 * @param ctx the context
 * @param root the whole command tree, asked for when the command runs (it contains this command)
 */
export function completionCommand(ctx: Context, root: () => CommandUnknownOpts): Command {
  const command = new Command("completion")
    .description("Print the shell completion script for bash, zsh or fish")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .action((shell) => runCompletion(ctx, { shell, root: root() }));
  withExamples(command, [
    "source <(hark completion bash)  # this shell only",
    "hark completion bash > /etc/bash_completion.d/hark",
    'hark completion zsh > "${fpath[1]}/_hark"',
    "hark completion fish > ~/.config/fish/completions/hark.fish",
  ]);
  return command as unknown as Command;
}
