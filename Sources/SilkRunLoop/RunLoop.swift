import CSilkLinux
