/**
 * The part of the bash and zsh completion scripts they share.
 *
 * @module
 */

import { allNodes, type CompletionNode, ident, shellQuote, valueKeys } from "./model.ts";

/**
 * The functions bash and zsh share: the data of the tree as `case` statements and the word
 * walker. They only use syntax both shells read the same way (no array indexing).
 */
export function posixCore(tree: CompletionNode, zsh: boolean): string {
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
          `${p}_vals+=(${words(node.commands.map((c) => c.name))})`,
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
              `  ${[c.name, ...c.aliases].map(shellQuote).join("|")}) ${p}_next=${
                shellQuote(c.name)
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
        return entries.length === 0 ? [] : [
          "case $2 in",
          ...entries.map((e) => {
            const pattern = e.keys.map(shellQuote).join("|");
            const actions = [
              ...(e.choices.length > 0 ? [`${p}_add "$3" ${words(e.choices)}`] : []),
              ...(e.files ? [`${p}_files=1`] : []),
              ...(e.profiles ? [`${p}_profiles "$3"`] : []),
            ];
            return `  ${pattern}) ${actions.join("; ")} ;;`;
          }),
          "esac",
        ];
      }),
    ),
    fn(
      "profiles",
      `Adds the profile names \`${tree.path[0]} __complete --profiles\` prints, prefixed with $1.`,
      `  local val\n  while IFS= read -r val; do\n` +
        `    ${p}_vals+=("$1$val")\n    ${p}_descs+=('')\n` +
        `  done < <(command ${shellQuote(tree.path[0])} __complete --profiles 2>/dev/null)\n`,
    ),
    fn(
      "dynamic",
      "Succeeds when command $1 has sub-commands only hark knows (API services and resources).",
      `  case $1 in\n` +
        (nodes.some((n) => n.dynamic)
          ? `    ${nodes.filter((n) => n.dynamic).map(key).join("|")}) return 0 ;;\n`
          : "") +
        "  esac\n  return 1\n",
    ),
    fn(
      "ask",
      `Sets the candidates to what \`${
        tree.path[0]
      } __complete\` offers for the words $@ (the last is\n` +
        "# under the cursor): API services, resources, methods and their flags.",
      `  local val desc\n  ${p}_vals=() ${p}_descs=() ${p}_files=0 ${p}_cur=''\n` +
        `  for val in "$@"; do ${p}_cur=$val; done\n` +
        `  while IFS=$'\\t' read -r val desc; do\n` +
        `    ${p}_vals+=("$val")\n    ${p}_descs+=("$desc")\n` +
        `  done < <(command ${shellQuote(tree.path[0])} __complete -- "$@" 2>/dev/null)\n` +
        "  return 0\n",
    ),
    fn(
      "candidates",
      `Completes the words after ${
        tree.path[0]
      }; the last one is under the cursor. Sets ${p}_vals\n` +
        `# and ${p}_descs (side by side), ${p}_files (1 when file names fit) and ${p}_cur (the text\n` +
        "# the candidates must start with).",
      `  local cmd=${shellQuote(tree.path[0])} word expect='' nargs=0 dashdash=0
  local -a all
  all=("$@")
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
      elif (( ! dashdash && nargs == 0 )) && ${p}_dynamic "$cmd"; then
        ${p}_ask "\${all[@]}"
        return 0
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
  elif (( ! dashdash && nargs == 0 )) && [[ $${p}_cur != +* ]] && ${p}_dynamic "$cmd"; then
    ${p}_ask "\${all[@]}"
  else
    (( dashdash || nargs > 0 )) || ${p}_subcommands "$cmd"
    ${p}_values "$cmd" "#$nargs" ''
  fi
  return 0
`,
    ),
  ].join("");
}
