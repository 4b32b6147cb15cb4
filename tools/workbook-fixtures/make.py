#!/usr/bin/python3
"""Writes the workbooks of fixtures/clean/workbooks/ with implementations other than mailclean's, once; the tests
read the committed files and need neither LibreOffice nor Python.

    apt-get install -y --no-install-recommends libreoffice-calc python3-uno python3-openpyxl
    /usr/bin/python3 tools/workbook-fixtures/make.py

LibreOffice (headless, driven through UNO) converts contacts.fods to .xlsx (with each formula's stored result), to
.xls (Excel 97-2003) and to an .xlsx encrypted with the password "secret"; openpyxl writes the same list itself.
"""
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import time

import openpyxl

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'fixtures', 'clean', 'workbooks')


def with_libreoffice():
    import uno
    from com.sun.star.beans import NamedValue, PropertyValue

    def props(**values):
        out = []
        for name, value in values.items():
            p = PropertyValue()
            p.Name, p.Value = name, value
            out.append(p)
        return tuple(out)

    profile = tempfile.mkdtemp()
    office = subprocess.Popen([
        'soffice', '--headless', '--invisible', '--norestore', f'-env:UserInstallation=file://{profile}',
        '--accept=socket,host=127.0.0.1,port=2083;urp;',
    ])
    try:
        resolver = uno.getComponentContext().ServiceManager.createInstanceWithContext(
            'com.sun.star.bridge.UnoUrlResolver', uno.getComponentContext())
        for _ in range(100):
            try:
                ctx = resolver.resolve('uno:socket,host=127.0.0.1,port=2083;urp;StarOffice.ComponentContext')
                break
            except Exception:
                time.sleep(0.3)
        else:
            sys.exit('LibreOffice did not start')
        desktop = ctx.ServiceManager.createInstanceWithContext('com.sun.star.frame.Desktop', ctx)
        source = uno.systemPathToFileUrl(os.path.join(HERE, 'contacts.fods'))
        doc = desktop.loadComponentFromURL(source, '_blank', 0, props(Hidden=True))
        url = lambda name: uno.systemPathToFileUrl(os.path.abspath(os.path.join(OUT, name)))
        doc.storeToURL(url('libreoffice-contacts.xlsx'), props(FilterName='Calc MS Excel 2007 XML'))
        doc.storeToURL(url('libreoffice-contacts.xls'), props(FilterName='MS Excel 97'))
        # OOXML encryption takes its password as encryption data (a plain Password is ignored for .xlsx).
        password, crypto = NamedValue(), NamedValue()
        password.Name, password.Value = 'OOXPassword', 'secret'
        crypto.Name, crypto.Value = 'CryptoType', 'Standard'
        encryption = uno.Any('[]com.sun.star.beans.NamedValue', (password, crypto))
        doc.storeToURL(url('libreoffice-encrypted.xlsx'), props(FilterName='Calc MS Excel 2007 XML', EncryptionData=encryption))
        doc.close(True)
    finally:
        office.terminate()
        office.wait()
        shutil.rmtree(profile, ignore_errors=True)


def with_openpyxl():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = 'Contacts'
    sheet.append(['Name', 'Email', 'Zip', 'Phone', 'Score', 'Spent', 'Joined', 'Last seen', 'Call at', 'Subscribed',
                  'Double', 'Note'])
    rows = [
        ['Ada Lovelace', 'ada@example.com', '02134', '+44 20 7946 0000', 12, 1234.5, datetime.date(2024, 3, 5),
         datetime.datetime(2024, 3, 5, 9, 15), datetime.time(14, 30), True, '=E2*2', None],
        ['Zoë Ünal', 'zoe@example.org', '00501', '0033612345678', -7.25, 0.1 + 0.2, datetime.date(1999, 12, 31),
         datetime.datetime(2025, 1, 2, 23, 59), datetime.time(8, 5), False, '=E3*2', 'first line\nsecond, with a comma'],
    ]
    for row in rows:
        sheet.append(row)
    sheet['F2'].number_format = '#,##0.00'
    sheet['L2'] = '=1+2'
    sheet['L2'].data_type = 's'  # text that looks like a formula, not one
    sheet.append(['Bob', 'bob@@example.net'])
    notes = book.create_sheet('Notes')
    notes.append(['exported from the CRM'])
    book.save(os.path.join(OUT, 'openpyxl-contacts.xlsx'))


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    with_libreoffice()
    with_openpyxl()
    print('written to', os.path.normpath(OUT))
