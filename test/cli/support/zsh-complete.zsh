# What a real interactive zsh offers on TAB: `zsh -f zsh-complete.zsh <setup> <line>…`
# starts an interactive zsh in a pseudo-terminal (zsh/zpty) for each line,
# runs <setup> in it (what a user's .zshrc would: compinit, the eval of
# `service-sdk completion zsh`), types <line> and TAB, and prints
# `<line>|<candidates, space-separated>`. compadd is wrapped to print the
# matches zsh kept after its own prefix matching (the technique of
# zsh-capture-completion); marks printed before and after the completion
# delimit them, and the inner shell exits once the completion is done.
zmodload zsh/zpty || exit 3
setup=$1
shift
for line in "$@"; do
  zpty z zsh -f -i || exit 3
  zpty -w z "PROMPT=''; RPROMPT=''"
  zpty -w z "$setup"
  # The marker texts are split in the source so that the terminal's echo of these lines never matches them.
  zpty -w z 'compadd() {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
    local -a hits
    builtin compadd -A hits "$@"
    (( $#hits )) && print -rl -- "<""candidate>"${^hits}
    return 0
  }'
  zpty -w z 'mark() { print -r -- "<""mark>"; }; compprefuncs=(mark); comppostfuncs=(mark exit); bindkey "^I" complete-word'
  zpty -w z "$line"$'\t'
  candidates=()
  integer marks=0
  buffered=''
  # Whole lines only: a read may end in the middle of one.
  while (( marks < 2 )) && zpty -r z chunk; do
    buffered+=${chunk//$'\r'/}
    while (( marks < 2 )) && [[ $buffered == *$'\n'* ]]; do
      out=${buffered%%$'\n'*}
      buffered=${buffered#*$'\n'}
      if [[ $out == *'<mark>'* ]]; then (( marks++ )); continue; fi
      (( marks == 1 )) && [[ $out == *'<candidate>'* ]] && candidates+=("${out#*<candidate>}")
    done
  done
  print -r -- "$line|${(j: :)candidates}"
  zpty -d z
done
