"""The passwords people pick most often, refused at registration (docs/security.md).

A short embedded list rather than a library or a download: the server needs no network, and the
guesses an attacker tries first are the same few hundred everywhere. Compared in lower case, so
"Password1" is refused with "password1". Passwords shorter than eight characters are refused by
length already; the list still holds the common short roots that people lengthen with digits.
"""

COMMON = frozenset("""
123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 1234567 123123 1234567890
000000 abc123 password1 iloveyou 1q2w3e4r 1q2w3e4r5t 1qaz2wsx qwertyuiop 123321 654321 666666
987654321 123qwe 7777777 88888888 87654321 11111111 00000000 12341234 11223344 1234qwer qwer1234
qwerty12 qwerty123456 q1w2e3r4 q1w2e3r4t5 zaq12wsx zaq1zaq1 asdfghjkl asdf1234 asdfasdf
password123 password12 passw0rd p@ssw0rd p@ssword pass1234 passpass password! password1!
letmein letmein1 welcome welcome1 welcome123 monkey123 dragon123 football baseball basketball
superman batman123 sunshine princess princess1 starwars whatever trustno1 iloveyou1 iloveyou2
michael1 jennifer jordan23 charlie1 freedom1 shadow123 master123 mustang1 access14 computer
internet qazwsxedc 1qazxsw2 zxcvbnm zxcvbnm1 zxcvbnm123 abcdefgh abcd1234 abc12345 abcdef123
aaaaaaaa aaaaaaa1 a1b2c3d4 a1234567 12345abc 123456a 123456aa 1234567a 12345678a 123456789a
changeme changeme1 secret123 mypassword default1 administrator admin123 admin1234 adminadmin
root1234 toor1234 guest123 test1234 testtest testing1 test12345 demo1234 user1234 login123
qwertyui qwerty11 1234abcd 11112222 12121212 13131313 69696969 77777777 99999999 12344321
123454321 147258369 159753123 159357456 741852963 789456123 789456 456789 13579 2468013579
football1 baseball1 soccer12 hockey12 killer12 hunter12 hunter2 ranger12 thunder1 summer12
summer2024 summer2025 winter2024 winter2025 spring2025 autumn2025 january1 december1
brigade brigade1 brigade123 cardgame cardgame1 brigade2025 brigade2026
""".split())


def is_common(password):
    """Whether ``password`` is on the list (ignoring letter case)."""
    return password.lower() in COMMON
